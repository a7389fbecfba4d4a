package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTest.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.breaker.core.State;
import dev.breaker.redis.FleetAcl;
import dev.breaker.redis.FleetKeys;
import dev.breaker.redis.RedisClusterSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Redis Cluster of three primaries with a replica each loses a primary (SIGKILL) under load: no guarded call fails
 * or waits, the store status shows the outage and the recovery, and once the replica is promoted sharing resumes by
 * itself, also for the breakers whose slots moved.
 */
class FleetClusterFailoverTest {

    /** A call that waited on Redis would have waited for the command timeout, at least. */
    private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);
    private static final FleetKeys KEYS = new FleetKeys("breaker:");

    private final List<Replica> replicas = new ArrayList<>();
    private RedisClusterSet cluster;

    @BeforeEach
    void startCluster() {
        cluster = RedisClusterSet.start(3, 1, "user checkout " + FleetAcl.RULES);
    }

    @AfterEach
    void stopAll() {
        replicas.forEach(Replica::close);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aKilledPrimaryCostsNoCallAndSharingResumesWithinTenSecondsOfThePromotion() throws Exception {
        Replica a = replica("a");
        Replica b = replica("b");
        Replica c = replica("c");
        List<Replica> fleet = List.of(a, b, c);
        String before = onPrimary(0, "before", 0);
        c.breaker(before);
        failTimes(a.breaker(before), 3);
        failTimes(b.breaker(before), 3);
        await().atMost(Duration.ofSeconds(3)).until(() -> c.breaker(before).state() == State.OPEN);
        long resumedAt;
        long promotedAt;
        Instant killedInstant;
        try (GuardedLoad load = new GuardedLoad(fleet, "checkout")) {
            long callsBefore = load.calls();
            long killedAt = System.nanoTime();
            killedInstant = Instant.now();
            RedisClusterSet.Node killed = cluster.killPrimaryOf(KEYS.state(before));
            promotedAt = cluster.awaitPromotion(KEYS.state(before), killed, Duration.ofSeconds(30));

            // the breakers of the slots that moved to the promoted replica
            resumedAt = FleetSentinelTest.firstTripThatReachesTheThird(a, b, c, promotedAt, round -> onPrimary(0, "after", round));
            assertThat(resumedAt).as("a trip reached the third replica within 10 s of the promotion").isPositive();
            System.out.printf("Cluster failover: primary killed -> replica promoted %d ms, promoted -> a trip on two replicas "
                    + "had opened the third %d ms%n", (promotedAt - killedAt) / 1_000_000, (resumedAt - promotedAt) / 1_000_000);
            await().atMost(Duration.ofSeconds(3)).until(() -> fleet.stream().allMatch(r -> r.status().up()));
            load.close();

            assertThat(load.calls()).isGreaterThan(callsBefore);
            assertThat(load.failed()).as("guarded calls that failed").isEmpty();
            assertThat(load.slowest()).as("the slowest guarded call").isLessThan(REDIS_TIMEOUT.dividedBy(2));
            assertThat(load.sawDown()).as("the store status showed the outage").isTrue();
        }
        assertThat(Duration.ofNanos(resumedAt - promotedAt)).isLessThan(Duration.ofSeconds(10));
        assertThat(fleet).allSatisfy(r -> {
            assertThat(r.status().up()).isTrue();
            assertThat(r.status().errors()).isPositive();
            assertThat(r.status().lastSync()).as("the fleet's state read again since the primary died").isAfter(killedInstant);
        });
        // a breaker on another primary shares as before
        String elsewhere = onPrimary(1, "elsewhere", 0);
        c.breaker(elsewhere);
        failTimes(a.breaker(elsewhere), 3);
        failTimes(b.breaker(elsewhere), 3);
        await().atMost(Duration.ofSeconds(3)).until(() -> c.breaker(elsewhere).state() == State.OPEN);
        assertThat(cluster.onEveryNode(FleetAcl::deniedSoFar)).allSatisfy(denied -> assertThat(denied).isEmpty());
    }

    /** The {@code nth} breaker name (with that prefix) whose keys lived on primary {@code index} when the cluster was built. */
    private String onPrimary(int index, String prefix, int nth) {
        for (int i = 0, seen = 0;; i++) {
            String name = prefix + "-" + i;
            if (cluster.primaryIndexOf(KEYS.state(name)) == index && seen++ == nth) {
                return name;
            }
        }
    }

    private Replica replica(String id) {
        Replica replica = Replica.start(id, FleetQuorumTest.config(Duration.ofSeconds(30)),
                "spring.data.redis.cluster.nodes=" + cluster.nodes(),
                "spring.data.redis.username=checkout", "spring.data.redis.password=" + FleetAcl.PASSWORD,
                "breaker.shared.redis.timeout=" + REDIS_TIMEOUT.toMillis() + "ms");
        replicas.add(replica);
        return replica;
    }
}
