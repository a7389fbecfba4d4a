package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RedisBreakerStoreTest {

    private static RedisServerHarness redis;

    private final List<FleetMessage> received = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService executor;
    private SharedStoreStatus status;
    private RedisBreakerStore store;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerHarness.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void connect() {
        executor = Executors.newSingleThreadScheduledExecutor();
        status = new SharedStoreStatus("replica-a", Clock.systemUTC());
        store = new RedisBreakerStore(RedisURI.create(redis.url()), "test:" + System.nanoTime() + ":", "test-channel",
                Duration.ofMillis(500), Duration.ofMillis(100), status, executor, new RedisBreakerStore.Listener() {
                    @Override
                    public void onMessage(FleetMessage message) {
                        received.add(message);
                    }

                    @Override
                    public void onConnected() {
                    }
                });
        store.start();
        await().atMost(Duration.ofSeconds(5)).until(store::connected);
    }

    @AfterEach
    void close() {
        store.close();
        executor.shutdownNow();
    }

    @Test
    void anOpenIsStoredWithItsTtlAndPublished() {
        long generation = store.publishOpen("payments", 1_000, "replica-a", "consecutive failures 5 >= 5", false).join();

        RedisBreakerStore.SharedState state = store.read("payments").join();
        assertThat(state.open()).isTrue();
        assertThat(state.generation()).isEqualTo(generation);
        assertThat(state.ttlMillis()).isBetween(1L, 1_000L);
        assertThat(state.replica()).isEqualTo("replica-a");
        assertThat(state.reason()).isEqualTo("consecutive failures 5 >= 5");
        await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(received).containsExactly(
                new FleetMessage(FleetMessage.Kind.OPEN, "payments", generation, 1_000, "replica-a", "consecutive failures 5 >= 5")));
    }

    @Test
    void theOpenKeyExpiresWithItsTtl() {
        store.publishOpen("payments", 50, "replica-a", "trip", false).join();

        await().atMost(Duration.ofSeconds(2)).until(() -> !store.read("payments").join().open());
    }

    @Test
    void aCloseRemovesTheOpenStateAndBumpsTheGeneration() {
        long opened = store.publishOpen("payments", 10_000, "replica-a", "trip", false).join();
        long closed = store.publishClose("payments", "replica-a", "5 probes succeeded").join();

        RedisBreakerStore.SharedState state = store.read("payments").join();
        assertThat(state.open()).isFalse();
        assertThat(closed).isGreaterThan(opened);
        assertThat(state.fleetGeneration()).isEqualTo(closed);
    }

    @Test
    void aResyncWriteNeverOverwritesAnOpenAlreadyThere() {
        long first = store.publishOpen("payments", 10_000, "replica-a", "trip", false).join();

        assertThat(store.publishOpen("payments", 5, "replica-b", "pushed after outage", true).join()).isZero();
        assertThat(store.read("payments").join().generation()).isEqualTo(first);
    }

    @Test
    void probeSlotsNeverExceedTheFleetMaximumInOneEpisode() {
        assertThat(store.claimProbes("payments", 7, "a", 3, 2, 10_000, 10_000).join()).isEqualTo(2);
        assertThat(store.claimProbes("payments", 7, "b", 3, 2, 10_000, 10_000).join()).isEqualTo(1);
        assertThat(store.claimProbes("payments", 7, "c", 3, 2, 10_000, 10_000).join()).isZero();
        assertThat(store.claimProbes("payments", 8, "c", 3, 3, 10_000, 10_000).join()).isEqualTo(3);
    }

    @Test
    void aReplicaAskingAgainReplacesItsOwnClaim() {
        assertThat(store.claimProbes("payments", 7, "a", 3, 3, 10_000, 10_000).join()).isEqualTo(3);
        assertThat(store.claimProbes("payments", 7, "a", 3, 3, 10_000, 10_000).join()).isEqualTo(3);
        assertThat(store.claimProbes("payments", 7, "b", 3, 3, 10_000, 10_000).join()).isZero();
    }

    @Test
    void slotsOfAReplicaWhoseLeaseLapsedAreHandedOutAgain() {
        assertThat(store.claimProbes("payments", 7, "gone", 2, 2, 100, 10_000).join()).isEqualTo(2);
        assertThat(store.claimProbes("payments", 7, "alive", 2, 2, 100, 10_000).join()).isZero();

        await().atMost(Duration.ofSeconds(2)).until(() -> store.claimProbes("payments", 7, "alive", 2, 2, 10_000, 10_000).join() == 2);
    }

    @Test
    void aRenewedLeaseKeepsTheSlots() {
        assertThat(store.claimProbes("payments", 7, "holder", 1, 1, 300, 10_000).join()).isEqualTo(1);
        for (int i = 0; i < 4; i++) {
            await().pollDelay(Duration.ofMillis(150)).atMost(Duration.ofSeconds(1)).until(() -> true);
            assertThat(store.renewProbeLease("payments", 7, "holder", 300).join()).isTrue();
        }
        assertThat(store.claimProbes("payments", 7, "other", 1, 1, 300, 10_000).join()).isZero();
    }

    @Test
    void commandsFailFastAndAreCountedWhileRedisIsDown() {
        redis.stop();
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> !status.up());
            long before = status.errors();

            assertThat(store.read("payments")).failsWithin(1, TimeUnit.SECONDS);
            assertThat(status.errors()).isGreaterThan(before);
        } finally {
            redis.restart();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> store.read("payments").handle((s, e) -> e == null).join());
        assertThat(status.up()).isTrue();
    }
}
