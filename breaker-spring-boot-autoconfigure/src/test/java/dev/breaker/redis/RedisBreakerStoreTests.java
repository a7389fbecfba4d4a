package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.State;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The store's scripts against a real Redis: what they store, announce and hand out. */
class RedisBreakerStoreTests {

	private static RedisServerHarness redis;

	private static RedisAdmin admin;

	private final List<FleetMessage> received = new CopyOnWriteArrayList<>();

	private ScheduledExecutorService executor;

	private SharedStoreStatus status;

	private RedisClock clock;

	private FleetKeys keys;

	private RedisBreakerStore store;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerHarness.start();
		admin = new RedisAdmin(redis);
	}

	@AfterAll
	static void stopRedis() {
		admin.close();
		redis.close();
	}

	@BeforeEach
	void connect() {
		executor = Executors.newSingleThreadScheduledExecutor();
		status = new SharedStoreStatus("replica-a", Clock.systemUTC());
		clock = new RedisClock();
		keys = new FleetKeys("test:" + System.nanoTime() + ":");
		store = new RedisBreakerStore(RedisURI.create(redis.url()), keys, "test-channel", Duration.ofMillis(500),
				Duration.ofMillis(100), status, clock, executor, new RedisBreakerStore.Listener() {
					@Override
					public void onMessage(String text) {
						received.add(FleetMessage.decode(text));
					}

					@Override
					public void onReachable() {
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
	void anOpenIsStoredWithItsTtlAndAnnounced() {
		FleetMessage open = open("payments", "e1", 1_000);

		assertThat(store.open(open, null).join().opened()).isTrue();

		StoreReplies.Stored stored = store.readOpen("payments").join();
		assertThat(stored.circuit()).isEqualTo(open);
		assertThat(stored.pttl()).isBetween(1L, 1_000L);
		await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(received).containsExactly(open));
		assertThat(clock.known()).isTrue();
	}

	@Test
	void theOpenExpiresWithItsTtl() {
		store.open(open("payments", "e1", 50), null).join();

		await().atMost(Duration.ofSeconds(2)).until(() -> store.readOpen("payments").join().circuit() == null);
	}

	@Test
	void anOpenFindsTheEpisodeAlreadyOpenAndLeavesIt() {
		store.open(open("payments", "e1", 10_000), null).join();

		StoreReplies.OpenReply second = store.open(open("payments", "e2", 5_000), null).join();

		assertThat(second.opened()).isFalse();
		assertThat(second.current().circuit().episode()).isEqualTo("e1");
		assertThat(store.readOpen("payments").join().circuit().episode()).isEqualTo("e1");
	}

	@Test
	void theReplicaWhoseProbesEndedAnEpisodeMayReplaceIt() {
		store.open(open("payments", "e1", 10_000), null).join();

		assertThat(store.open(open("payments", "e2", 5_000), "e1").join().opened()).isTrue();
		assertThat(store.open(open("payments", "e3", 5_000), "e1").join().opened()).isFalse();
		assertThat(store.readOpen("payments").join().circuit().episode()).isEqualTo("e2");
	}

	@Test
	void garbageWhereAnOpenBelongsIsReplaced() {
		admin.redis().set(keys.state("payments"), "not a hash");
		assertThat(store.open(open("payments", "e1", 10_000), null).join().opened()).isTrue();

		admin.redis().del(keys.state("payments"));
		admin.redis().hset(keys.state("payments"), Map.of("state", "OPEN", "episode", "junk", "ttl", "soon"));
		assertThat(store.open(open("payments", "e2", 10_000), null).join().opened()).isTrue();
	}

	@Test
	void aCloseEndsOnlyTheEpisodeItNames() {
		store.open(open("payments", "e1", 10_000), null).join();

		assertThat(store.close("payments", "e0", close("payments", "e0")).join()).isFalse();
		assertThat(store.readOpen("payments").join().circuit()).isNotNull();
		assertThat(store.close("payments", "e1", close("payments", "e1")).join()).isTrue();
		assertThat(store.readOpen("payments").join().circuit()).isNull();
		await().atMost(Duration.ofSeconds(2))
			.until(() -> received.stream().anyMatch(m -> m.kind() == FleetMessage.Kind.CLOSED));
	}

	@Test
	void aCloseAfterTheEpisodeRanOutIsStillAnnounced() {
		store.open(open("payments", "e1", 50), null).join();
		await().atMost(Duration.ofSeconds(2)).until(() -> store.readOpen("payments").join().circuit() == null);

		assertThat(store.close("payments", "e1", close("payments", "e1")).join()).isTrue();
	}

	@Test
	void votesOfDistinctReplicasCountUntilTheirOpenWaitEnds() {
		assertThat(store.vote("payments", "a", 10_000, "0|10000|").join().votes()).containsOnlyKeys("a");
		assertThat(store.vote("payments", "a", 10_000, "0|10000|").join().votes()).containsOnlyKeys("a");
		assertThat(store.vote("payments", "b", 100, "0|100|").join().votes()).containsOnlyKeys("a", "b");

		await().atMost(Duration.ofSeconds(2))
			.until(() -> !store.vote("payments", "c", 10_000, "0|10000|").join().votes().containsKey("b"));
	}

	@Test
	void aForgedVoteTooFarAheadForRedisToExpireIsDroppedAndTheVoteCounts() {
		// past any time Redis can expire a key at: the script's PEXPIREAT would fail, and
		// with it every vote of this breaker (no trip would reach the fleet)
		admin.redis().hset(keys.votes("payments"), "mallory", "99999999999999999999|0|10000|");

		assertThat(store.vote("payments", "a", 10_000, "0|10000|").join().votes()).containsOnlyKeys("a");
		assertThat(admin.redis().pttl(keys.votes("payments"))).isBetween(1L, 10_000L);
	}

	@Test
	void aForgedVoteThatWouldOutliveAnyOpenWaitIsDroppedSoTheVotesKeyExpires() {
		// a vote lasts its replica's open wait, at most a max-open-wait (at most 24 h)
		admin.redis().hset(keys.votes("payments"), "mallory", "4102444800000|0|10000|");

		assertThat(store.vote("payments", "a", 10_000, "0|10000|").join().votes()).containsOnlyKeys("a");
		assertThat(admin.redis().pttl(keys.votes("payments"))).isBetween(1L, 10_000L);
	}

	@Test
	void aVoteSeesTheEpisodeAlreadyOpen() {
		store.open(open("payments", "e1", 10_000), null).join();

		assertThat(store.vote("payments", "b", 10_000, "0|10000|").join().current().circuit().episode())
			.isEqualTo("e1");
	}

	@Test
	void probeSlotsNeverExceedTheFleetMaximumInOneEpisode() {
		assertThat(claim("e7", "a", 3, 2, 10_000)).isEqualTo(2);
		assertThat(claim("e7", "b", 3, 2, 10_000)).isEqualTo(1);
		assertThat(claim("e7", "c", 3, 2, 10_000)).isZero();
		assertThat(claim("e8", "c", 3, 3, 10_000)).isEqualTo(3);
	}

	@Test
	void aReplicaAskingAgainReplacesItsOwnClaim() {
		assertThat(claim("e7", "a", 3, 3, 10_000)).isEqualTo(3);
		assertThat(claim("e7", "a", 3, 3, 10_000)).isEqualTo(3);
		assertThat(claim("e7", "b", 3, 3, 10_000)).isZero();
	}

	@Test
	void slotsOfAReplicaWhoseLeaseLapsedAreHandedOutAgain() {
		assertThat(claim("e7", "gone", 2, 2, 100)).isEqualTo(2);
		assertThat(claim("e7", "alive", 2, 2, 10_000)).isZero();

		await().atMost(Duration.ofSeconds(2)).until(() -> claim("e7", "alive", 2, 2, 10_000) == 2);
	}

	@Test
	void releasedSlotsAreHandedOutAtOnce() {
		assertThat(claim("e7", "idle", 2, 2, 10_000)).isEqualTo(2);

		store.release("payments", "e7", "idle").join();

		assertThat(claim("e7", "busy", 2, 2, 10_000)).isEqualTo(2);
	}

	@Test
	void aHolderLearnsThatAReplicaWithTrafficWentWithoutSlots() {
		assertThat(claim("e7", "idle", 1, 1, 10_000)).isEqualTo(1);
		assertThat(store.claim("payments", "e7", "idle", 1, 1, 10_000, 10_000, "1|", false, List.of()).join().wanted())
			.isFalse();

		assertThat(store.claim("payments", "e7", "busy", 1, 1, 10_000, 10_000, "1|", true, List.of()).join().grant())
			.isZero();

		assertThat(store.claim("payments", "e7", "idle", 1, 1, 10_000, 10_000, "1|", false, List.of()).join().wanted())
			.isTrue();
	}

	@Test
	void aGenuineDayLongVoteIsKeptWhenRedisClockStepsBack() {
		// a 24 h vote written before a failover to a Redis whose clock is half an hour
		// behind: it still counts toward the quorum
		List<String> time = admin.redis().time();
		long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
		long expires = now + Duration.ofHours(24).plusMinutes(30).toMillis();
		admin.redis().hset(keys.votes("payments"), "b", expires + "|0|86400000|");

		assertThat(store.vote("payments", "a", 10_000, "0|10000|").join().votes()).containsOnlyKeys("a", "b");
	}

	@Test
	void aForgedMarkOfAReplicaThatWentWithoutSlotsThatIsNoTimeIsDropped() {
		// Lua reads "1e400" as infinity, and printed it as "inf": no claim could be read
		admin.redis().hset(keys.probes("payments", "e7"), "~wanted~", "1e400");

		StoreReplies.ClaimReply reply = store.claim("payments", "e7", "a", 1, 1, 10_000, 10_000, "1|", false, List.of())
			.join();
		assertThat(reply.grant()).isEqualTo(1);
		assertThat(reply.wanted()).isFalse();
	}

	@Test
	void holdersFoundNotGenuineAreDropped() {
		admin.redis().hset(keys.probes("payments", "e7"), "mallory", "4|4102444800000|4|");

		assertThat(claim("e7", "a", 4, 4, 10_000)).isZero();
		assertThat(store.claim("payments", "e7", "a", 4, 4, 10_000, 10_000, "4|", false, List.of("mallory"))
			.join()
			.grant()).isEqualTo(4);
	}

	@Test
	void anOverrideSentAgainIsNotTakenOverADecisionRedisTookThatWasDecidedAfterIt() {
		assertThat(store.override(override("quotes", State.DISABLED, "b", 2_000), 2_000, false).join()).isTrue();

		assertThat(store.override(override("quotes", State.FORCED_OPEN, "a", 2_500), 1_000, true).join()).isFalse();

		assertThat(store.readOverride("quotes").join().override()).isEqualTo(State.DISABLED);
		// a reset leaves no override, but when it was decided stays
		assertThat(store.override(override("quotes", State.CLOSED, "b", 3_000), 3_000, false).join()).isTrue();
		assertThat(store.override(override("quotes", State.FORCED_OPEN, "a", 3_500), 2_500, true).join()).isFalse();
		assertThat(store.readOverride("quotes").join()).isNull();
		assertThat(admin.redis().pttl(keys.decided("quotes"))).isPositive();
		await().atMost(Duration.ofSeconds(2))
			.untilAsserted(() -> assertThat(received).extracting(FleetMessage::override)
				.containsExactly(State.DISABLED, State.CLOSED));
	}

	@Test
	void anOverrideSentAgainIsTakenWhenNothingDecidedAfterItWasTaken() {
		// this replica's own earlier FORCED_OPEN, then its reset sent again (twice: the
		// first one Redis ran though its answer timed out)
		store.override(override("quotes", State.FORCED_OPEN, "a", 1_000), 1_000, false).join();

		assertThat(store.override(override("quotes", State.CLOSED, "a", 2_500), 2_000, true).join()).isTrue();
		assertThat(store.override(override("quotes", State.CLOSED, "a", 2_600), 2_000, true).join()).isTrue();

		assertThat(store.readOverride("quotes").join()).isNull();
		// a decision made for the first time is taken as it comes, an older one too
		assertThat(store.override(override("quotes", State.DISABLED, "b", 1_500), 1_500, false).join()).isTrue();
		assertThat(store.readOverride("quotes").join().override()).isEqualTo(State.DISABLED);
		// and it does not make the decided time older: the reset sent again still is not
		// older than anything taken
		assertThat(store.override(override("quotes", State.CLOSED, "a", 2_700), 2_000, true).join()).isTrue();
	}

	@Test
	void anOverrideDecidedBeforeRedisTimeWasKnownIsTakenAgainOnlyWhileNoDecidedTimeIsStored() {
		assertThat(store.override(override("quotes", State.FORCED_OPEN, "a", 1_000), -1, true).join()).isTrue();
		assertThat(admin.redis().hget(keys.decided("quotes"), "at")).as("the decided time").isNull();

		store.override(override("quotes", State.DISABLED, "b", 1_000), 1_000, false).join();

		assertThat(store.override(override("quotes", State.CLOSED, "a", 2_000), -1, true).join()).isFalse();
		assertThat(store.readOverride("quotes").join().override()).isEqualTo(State.DISABLED);
	}

	@Test
	void garbageWhereTheDecidedTimeBelongsCountsAsNoDecision() {
		admin.redis().set(keys.decided("quotes"), "not a hash");
		assertThat(store.override(override("quotes", State.FORCED_OPEN, "a", 1_000), 1_000, true).join()).isTrue();

		admin.redis().hset(keys.decided("quotes"), "at", "not a time");
		assertThat(store.override(override("quotes", State.DISABLED, "a", 1_000), 500, true).join()).isTrue();
		assertThat(store.readOverride("quotes").join().override()).isEqualTo(State.DISABLED);
	}

	@Test
	void theReconnectReadFindsOpensAndOverridesPageByPage() {
		for (int i = 0; i < 500; i++) {
			admin.redis().hset(keys.state("junk-" + i), "x", "1");
		}
		store.open(open("payments", "e1", 10_000), null).join();
		store
			.override(new FleetMessage(FleetMessage.Kind.OVERRIDE, "quotes", "", 0, State.FORCED_OPEN, "a", 1,
					"operator", ""), 1, false)
			.join();

		List<String> found = new ArrayList<>();
		String cursor = "0";
		int pages = 0;
		do {
			StoreReplies.ScanPage page = store.scan(cursor).join();
			found.addAll(page.keys());
			cursor = page.cursor();
			pages++;
			if (page.finished()) {
				break;
			}
		}
		while (true);

		assertThat(found).contains(keys.state("payments"), keys.override("quotes"));
		assertThat(pages).isGreaterThan(1);
		assertThat(store.readOverride("quotes").join().override()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void commandsFailFastAndAreCountedWhileRedisIsDown() {
		redis.stop();
		try {
			await().atMost(Duration.ofSeconds(5)).until(() -> !status.up());
			long before = status.errors();

			assertThat(store.readOpen("payments")).failsWithin(1, TimeUnit.SECONDS);
			assertThat(status.errors()).isGreaterThan(before);
		}
		finally {
			redis.restart();
		}
		await().atMost(Duration.ofSeconds(5))
			.until(() -> store.readOpen("payments").handle((s, e) -> e == null).join());
		assertThat(status.up()).isTrue();
	}

	private int claim(String episode, String replica, int max, int want, long leaseMillis) {
		return store.claim("payments", episode, replica, max, want, leaseMillis, 10_000, want + "|", false, List.of())
			.join()
			.grant();
	}

	private static FleetMessage override(String breaker, State state, String replica, long issuedAt) {
		return new FleetMessage(FleetMessage.Kind.OVERRIDE, breaker, "", 0, state, replica, issuedAt, "operator", "");
	}

	private static FleetMessage open(String breaker, String episode, long ttl) {
		return new FleetMessage(FleetMessage.Kind.OPEN, breaker, episode, ttl, null, "replica-a", 1_000,
				"consecutive failures 5 >= 5", "");
	}

	private static FleetMessage close(String breaker, String episode) {
		return new FleetMessage(FleetMessage.Kind.CLOSED, breaker, episode, 0, null, "replica-a", 1_000,
				"5 probes succeeded", "");
	}

}
