package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;

/**
 * One replica ("a", quorum 1, the system ticker) of a fleet on a real Redis of its own,
 * with an admin connection to that Redis, for tests that land something exactly between
 * two steps of the fleet sync. Closed sync first, Redis last.
 */
final class OneReplica implements AutoCloseable {

	final RedisServerHarness redis = RedisServerHarness.start();

	final RedisAdmin admin = new RedisAdmin(redis);

	final BreakerRegistry registry = systemTickerRegistry();

	final FleetSettings settings = FleetSettings.defaults(1);

	final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", redis.port()), settings);

	/**
	 * Breakers at their defaults on the system ticker: this replica's, and a peer's
	 * joined to the same Redis.
	 */
	static BreakerRegistry systemTickerRegistry() {
		return BreakerRegistry.builder().defaults(BreakerConfig.builder().ticker(Ticker.system()).build()).build();
	}

	/** Starts the replica's fleet sync and waits for its first read of the fleet. */
	FleetSync started() throws InterruptedException {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		return sync;
	}

	/**
	 * Publishes, on the fleet's channel, an operator's override of {@code breaker} on
	 * every replica made on the peer "checkout-2" (unsigned, issued now). Returns how
	 * many subscribers got it.
	 */
	long peerOverride(String breaker, State state) {
		String message = new FleetMessage(FleetMessage.Kind.OVERRIDE, breaker, "", 0, state, "checkout-2",
				System.currentTimeMillis(), "operator: " + state + " on every replica", "")
			.encode();
		return admin.publish(settings.channel(), message);
	}

	/**
	 * An operator's reset of {@code breaker} on every replica made on the peer
	 * "checkout-2" now, as Redis takes it from a replica: the real override script (which
	 * also keeps when it was decided), run on this replica's Redis.
	 */
	void peerReset(String breaker) {
		// decided after whatever was decided before this call, by more than this
		// replica's estimate of Redis's clock may be off on loopback
		long called = redisTimeMillis();
		long now = called;
		while (now < called + 2) {
			now = redisTimeMillis();
		}
		peerOverrideTaken(breaker, State.CLOSED, now);
	}

	/**
	 * An operator's override of {@code breaker} on every replica made on the peer
	 * "checkout-2" at {@code decidedAt} (Redis's time) and sent for the first time, as
	 * Redis takes it from a replica only now (unsigned): the real override script, run on
	 * this replica's Redis.
	 */
	void peerOverrideTaken(String breaker, State state, long decidedAt) {
		peerOverrideTaken(breaker, state, decidedAt, false);
	}

	/**
	 * As {@link #peerOverrideTaken(String, State, long)}, {@code again}: sent again by
	 * "checkout-2" now, as it is after Redis refused it (a reset sent again ends no
	 * episode opened after {@code decidedAt}).
	 */
	void peerOverrideTaken(String breaker, State state, long decidedAt, boolean again) {
		FleetKeys keys = new FleetKeys(settings.keyPrefix());
		String reason = "operator: " + state + " on every replica";
		String message = new FleetMessage(FleetMessage.Kind.OVERRIDE, breaker, "", 0, state, "checkout-2", decidedAt,
				reason, "")
			.encode();
		admin.redis()
			.eval(FleetScripts.OVERRIDE.body(), ScriptOutputType.INTEGER,
					new String[] { keys.state(breaker), keys.votes(breaker), keys.override(breaker),
							keys.decided(breaker) },
					state.name(), "checkout-2", reason, Long.toString(decidedAt), "", settings.channel(), message,
					Long.toString(decidedAt), again ? "1" : "0");
	}

	/**
	 * A trip on the peer "checkout-2" that opens {@code breaker} fleet-wide for
	 * {@code ttlMillis} now (unsigned): the real open script, run on this replica's
	 * Redis. Returns the episode.
	 */
	String peerOpened(String breaker, long ttlMillis) {
		return peerOpened(breaker, ttlMillis, settings.channel());
	}

	/**
	 * As {@link #peerOpened(String, long)}, announced on {@code channel} (another than
	 * the fleet's: an announcement this replica never hears).
	 */
	String peerOpened(String breaker, long ttlMillis, String channel) {
		FleetKeys keys = new FleetKeys(settings.keyPrefix());
		String episode = "peer-" + System.nanoTime();
		String issued = Long.toString(redisTimeMillis());
		String reason = "fleet failure rate 100.0% >= 50% over 40 calls";
		String message = new FleetMessage(FleetMessage.Kind.OPEN, breaker, episode, ttlMillis, null, "checkout-2",
				Long.parseLong(issued), reason, "")
			.encode();
		admin.redis()
			.eval(FleetScripts.OPEN.body(), ScriptOutputType.MULTI,
					new String[] { keys.state(breaker), keys.votes(breaker) }, episode, Long.toString(ttlMillis),
					"checkout-2", reason, issued, "", channel, message, "absent");
		return episode;
	}

	/** What a test lands between two steps of the fleet sync (it may throw). */
	@FunctionalInterface
	interface Landing {

		void run() throws Exception;

	}

	/**
	 * Runs {@code landing} once, as the pause before this replica's refused override of
	 * {@code breaker} is sent again ends (on the sync thread, before it is checked: this
	 * replica hears nothing meanwhile). Returns once it ran, and fails if it did.
	 */
	void asTheResendPauseEnds(Breaker breaker, Landing landing) {
		AtomicBoolean landed = new AtomicBoolean();
		AtomicReference<Throwable> failed = new AtomicReference<>();
		sync.overrides().beforeResend(found -> {
			if (found == breaker && landed.compareAndSet(false, true)) {
				try {
					landing.run();
				}
				catch (Throwable e) {
					failed.set(e);
				}
			}
		});
		await().atMost(Duration.ofSeconds(20)).until(landed::get);
		assertThat(failed.get()).as("what landed as the pause ended").isNull();
	}

	/** Redis's clock, in milliseconds. */
	long redisTimeMillis() {
		List<String> time = admin.redis().time();
		return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
	}

	@Override
	public void close() {
		sync.close();
		admin.close();
		redis.close();
	}

}
