package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTest.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.redis.RedisServerHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Three low-traffic replicas, none with enough calls to trip alone, trip together on the fleet's failure rate. */
class FleetWindowIntegrationTest {

    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .consecutiveFailures(0)
            .failureRateThreshold(50)
            .minimumCalls(10)
            .window(Duration.ofSeconds(10))
            .bucket(Duration.ofSeconds(1))
            .openWait(Duration.ofSeconds(5))
            .openWaitJitter(0)
            .ticker(Ticker.system())
            .build();

    private final List<Replica> replicas = new ArrayList<>();
    private RedisServerHarness redis;

    @BeforeEach
    void startRedis() {
        redis = RedisServerHarness.start();
    }

    @AfterEach
    void stopAll() {
        replicas.forEach(Replica::close);
        redis.close();
    }

    @Test
    void replicasTripTogetherOnTheFleetFailureRate() {
        List<Replica> fleet = fleet("breaker.shared.redis.fleet-window=true", "breaker.shared.redis.flush-interval=200ms");

        fleet.forEach(r -> failTimes(r.breaker("inventory"), 4));

        await().atMost(Duration.ofSeconds(3)).until(() -> fleet.stream().allMatch(r -> r.breaker("inventory").state() == State.OPEN));
        // 4 calls each, under minimum-calls 10: no replica could have tripped on its own window
        assertThat(fleet).allSatisfy(r -> assertThat(r.breaker("inventory").snapshot().transitions()).last()
                .satisfies(t -> assertThat(t.reason()).contains("fleet failure rate 100.0% >= 50% over ")));
    }

    @Test
    void withoutTheFleetWindowEachReplicaCountsAlone() {
        List<Replica> fleet = fleet();

        fleet.forEach(r -> failTimes(r.breaker("inventory"), 4));

        await().pollDelay(Duration.ofMillis(600)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(fleet).allSatisfy(r -> assertThat(r.breaker("inventory").state()).isEqualTo(State.CLOSED));
    }

    private List<Replica> fleet(String... properties) {
        for (String id : List.of("a", "b", "c")) {
            Replica replica = Replica.start(redis, id, CONFIG, properties);
            replica.breaker("inventory");
            replicas.add(replica);
        }
        return List.copyOf(replicas);
    }
}
