package dev.breaker.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.core.Transition;
import dev.breaker.redis.RedisServerHarness;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two or three replicas (Spring application contexts) share breakers through a real Redis server.
 * Open waits are short (about a second) and waits are bounded polls, since Redis TTLs run on real time.
 */
class FleetModeIntegrationTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(3);

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
    void aTripOnOneReplicaOpensTheOthers() {
        Replica a = replica("a", config(Duration.ofSeconds(5)));
        Replica b = replica("b", config(Duration.ofSeconds(5)));
        Replica c = replica("c", config(Duration.ofSeconds(5)));
        List<Transition> seenByB = new CopyOnWriteArrayList<>();
        b.breaker("payments").onTransition(seenByB::add);
        c.breaker("payments");

        failTimes(a.breaker("payments"), 3);

        assertThat(a.breaker("payments").state()).isEqualTo(State.OPEN);
        await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN
                && c.breaker("payments").state() == State.OPEN);
        assertThat(seenByB).singleElement().satisfies(t -> {
            assertThat(t.remote()).isTrue();
            assertThat(t.reason()).startsWith("peer a: ");
        });
        assertThatThrownBy(() -> b.breaker("payments").call(() -> "never runs")).isInstanceOf(BreakerOpenException.class);
        assertThat(c.sync().view("payments")).satisfies(view -> {
            assertThat(view.storeUp()).isTrue();
            assertThat(view.fleetOpen()).isTrue();
            assertThat(view.remainingMillis()).isBetween(1L, 5_000L);
            assertThat(view.replica()).isEqualTo("a");
            assertThat(view.reason()).isEqualTo("consecutive failures 3 >= 3");
            assertThat(view.generation()).isPositive();
        });
        // no echo: the peers applied the trip without publishing it again
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(redisGet("breaker:payments:gen")).isEqualTo("1");
    }

    @Test
    void theCircuitStillHalfOpensWhenTheTrippingReplicaIsGone() {
        Replica a = replica("a", config(Duration.ofSeconds(1)));
        Replica b = replica("b", config(Duration.ofSeconds(1)));
        b.breaker("payments");
        failTimes(a.breaker("payments"), 3);
        await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);

        a.close();
        replicas.remove(a);

        await().atMost(Duration.ofSeconds(4)).until(() -> b.breaker("payments").state() == State.HALF_OPEN);
        await().atMost(Duration.ofSeconds(2)).until(() -> !redisHasKey("breaker:payments"));
    }

    @Test
    void aReplicaStartedWhileTheCircuitIsOpenStartsOpen() {
        Replica a = replica("a", config(Duration.ofSeconds(10)));
        failTimes(a.breaker("payments"), 3);
        await().atMost(PROPAGATION).until(() -> redisHasKey("breaker:payments"));

        Replica late = replica("late", config(Duration.ofSeconds(10)));

        Breaker payments = late.breaker("payments");
        assertThat(payments.state()).isEqualTo(State.OPEN);
        assertThat(payments.snapshot().transitions()).last().satisfies(t -> assertThat(t.reason()).startsWith("peer a: "));
    }

    @Test
    void aCloseOnOneReplicaClosesTheOthers() {
        BreakerConfig config = config(Duration.ofSeconds(1)).toBuilder().halfOpenMaxProbes(1).halfOpenSuccessesToClose(1).build();
        Replica a = replica("a", config);
        Replica b = replica("b", config);
        failTimes(a.breaker("payments"), 3);
        await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);

        // one of them gets the fleet's only probe slot and half-opens; the other stays open without probing
        await().atMost(Duration.ofSeconds(4)).until(() -> a.breaker("payments").state() == State.HALF_OPEN
                || b.breaker("payments").state() == State.HALF_OPEN);
        Replica prober = a.breaker("payments").state() == State.HALF_OPEN ? a : b;
        Replica waiter = prober == a ? b : a;
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(waiter.breaker("payments").state()).isEqualTo(State.OPEN);
        assertThatThrownBy(() -> waiter.breaker("payments").call(() -> "no slot")).isInstanceOf(BreakerOpenException.class);

        succeed(prober.breaker("payments"));

        assertThat(prober.breaker("payments").state()).isEqualTo(State.CLOSED);
        await().atMost(PROPAGATION).until(() -> waiter.breaker("payments").state() == State.CLOSED);
    }

    @Test
    void theFleetNeverRunsMoreConcurrentProbesThanAllowed() throws Exception {
        BreakerConfig config = config(Duration.ofSeconds(1)).toBuilder()
                .halfOpenMaxProbes(2).halfOpenSuccessesToClose(10).halfOpenMaxWait(Duration.ofSeconds(30)).build();
        List<Replica> fleet = List.of(replica("a", config), replica("b", config), replica("c", config));
        fleet.forEach(r -> r.breaker("payments"));
        failTimes(fleet.get(0).breaker("payments"), 3);
        await().atMost(PROPAGATION).until(() -> fleet.stream().allMatch(r -> r.breaker("payments").state() == State.OPEN));

        AtomicInteger inDependency = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        AtomicInteger probes = new AtomicInteger();
        CountDownLatch dependencyHangs = new CountDownLatch(1);
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService callers = Executors.newFixedThreadPool(12);
        try {
            for (Replica replica : fleet) {
                Breaker payments = replica.breaker("payments");
                for (int t = 0; t < 4; t++) {
                    callers.execute(() -> {
                        while (running.get()) {
                            try {
                                payments.call(() -> {
                                    probes.incrementAndGet();
                                    mostAtOnce.accumulateAndGet(inDependency.incrementAndGet(), Math::max);
                                    try {
                                        dependencyHangs.await(10, TimeUnit.SECONDS);
                                    } finally {
                                        inDependency.decrementAndGet();
                                    }
                                    return "ok";
                                });
                            } catch (BreakerOpenException rejected) {
                                Thread.onSpinWait();
                            } catch (Exception unexpected) {
                                throw new AssertionError(unexpected);
                            }
                        }
                    });
                }
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> probes.get() >= 1);
            // every replica's open wait has ended by now: let all claims come back and any over-granted probe start
            await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(2)).until(() -> true);

            assertThat(mostAtOnce.get()).isBetween(1, 2);
        } finally {
            running.set(false);
            dependencyHangs.countDown();
            callers.shutdown();
            callers.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void whileRedisIsDownCallsFlowAndBreakersTripLocally() throws Exception {
        Replica a = replica("a", config(Duration.ofSeconds(5)));
        Replica b = replica("b", config(Duration.ofSeconds(5)));
        b.breaker("payments");

        redis.stop();
        await().atMost(PROPAGATION).until(() -> !a.status().up());

        assertThat(a.breaker("payments").call(() -> "still flows")).isEqualTo("still flows");
        failTimes(a.breaker("payments"), 3);
        assertThat(a.breaker("payments").state()).isEqualTo(State.OPEN);
        assertThat(b.breaker("payments").call(() -> "b decides alone")).isEqualTo("b decides alone");
        assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);
        assertThat(a.status().errors()).isPositive();
    }

    @Test
    void whenRedisReturnsTheFleetResyncs() {
        Replica a = replica("a", config(Duration.ofSeconds(10)));
        Replica b = replica("b", config(Duration.ofSeconds(10)));
        b.breaker("payments");
        redis.stop();
        await().atMost(PROPAGATION).until(() -> !a.status().up() && !b.status().up());
        failTimes(a.breaker("payments"), 3);

        redis.restart();

        await().atMost(Duration.ofSeconds(5)).until(() -> a.status().up() && b.status().up());
        await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);
        assertThat(redisHasKey("breaker:payments")).isTrue();
        assertThat(a.status().lastSync()).isNotNull();
    }

    @Test
    void aRedisThatRestartsEmptyIsRefilledByTheReplicasHoldingTheCircuitOpen() {
        Replica a = replica("a", config(Duration.ofSeconds(10)));
        Replica b = replica("b", config(Duration.ofSeconds(10)));
        b.breaker("payments");
        failTimes(a.breaker("payments"), 3);
        await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);

        redis.restart();
        await().atMost(Duration.ofSeconds(5)).until(() -> redisHasKey("breaker:payments"));

        Replica late = replica("late", config(Duration.ofSeconds(10)));
        assertThat(late.breaker("payments").state()).isEqualTo(State.OPEN);
    }

    private Replica replica(String id, BreakerConfig config) {
        Replica replica = Replica.start(redis, id, config);
        replicas.add(replica);
        return replica;
    }

    private static BreakerConfig config(Duration openWait) {
        return BreakerConfig.builder()
                .consecutiveFailures(3)
                .failureRateThreshold(0)
                .openWait(openWait)
                .openWaitJitter(0)
                .maxOpenWait(openWait.multipliedBy(4))
                .halfOpenMaxProbes(1)
                .halfOpenSuccessesToClose(1)
                .ticker(Ticker.system())
                .build();
    }

    static void failTimes(Breaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            try {
                breaker.call(() -> {
                    throw new IOException("payments is down");
                });
            } catch (IOException expected) {
                // the dependency's own failure, passed through
            } catch (Exception other) {
                throw new AssertionError(other);
            }
        }
    }

    static void succeed(Breaker breaker) {
        try {
            breaker.call(() -> "ok");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private String redisGet(String key) {
        RedisClient client = RedisClient.create(redis.url());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().get(key);
        } finally {
            client.shutdown();
        }
    }

    private boolean redisHasKey(String key) {
        RedisClient client = RedisClient.create(redis.url());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().exists(key) == 1;
        } finally {
            client.shutdown();
        }
    }
}
