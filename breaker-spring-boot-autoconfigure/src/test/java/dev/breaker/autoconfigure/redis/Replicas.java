package dev.breaker.autoconfigure.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.Ticker;
import dev.breaker.redis.RedisAdmin;
import dev.breaker.redis.RedisServerHarness;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The fleet tests' set-up: a real Redis and the replicas (Spring application contexts,
 * {@link Replica}) a test starts on it, each with the same breaker defaults and
 * properties unless the test says otherwise. Registered on a field,
 * {@code @RegisterExtension final Replicas replicas = Replicas.onLocalRedis()…}: before
 * each test it starts an empty embedded Redis (or, {@link #at}, finds the Redis the class
 * set up: a Cluster, Sentinels, a TLS server), after it closes every replica the test
 * started, in the order they started, then the admin connection and the Redis it started.
 *
 * <p>
 * A replica's properties are, later ones winning: {@link Replica}'s own (fleet mode on,
 * its id, short reconnect intervals), where Redis is, this fleet's
 * {@link #properties(String...)}, and the ones given to {@link #start}.
 */
final class Replicas implements BeforeEachCallback, AfterEachCallback {

	/**
	 * For a test that asserts no store error while Redis is up: a reconnect interval of 1
	 * s, so the periodic ping (which fails after half of it) has 500 ms to answer. The
	 * harness's 200 ms leaves it 100 ms, which a loaded build machine misses now and
	 * then, and a ping that misses counts as a store error, as it must in production.
	 */
	static final String PATIENT_PING = "breaker.shared.redis.reconnect-interval=1s";

	private final @Nullable Supplier<List<String>> where;

	private final List<Replica> started = new ArrayList<>();

	private BreakerConfig defaults = threeFailures(Duration.ofSeconds(30));

	private List<String> properties = List.of();

	private @Nullable RedisServerHarness redis;

	private @Nullable RedisAdmin admin;

	private Replicas(@Nullable Supplier<List<String>> where) {
		this.where = where;
	}

	/** Replicas on an empty embedded Redis started for each test. */
	static Replicas onLocalRedis() {
		return new Replicas(null);
	}

	/**
	 * Replicas on a Redis the test class set up; {@code where} names it in
	 * {@code spring.data.redis.*} properties, asked anew for each replica.
	 */
	static Replicas at(Supplier<List<String>> where) {
		return new Replicas(where);
	}

	/**
	 * Trips after three consecutive failures, no failure rate, {@code openWait} without
	 * jitter and at most four times over, one probe closes: what most fleet tests need.
	 */
	static BreakerConfig threeFailures(Duration openWait) {
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

	/**
	 * Trips on the failure rate only: 50 % of at least 10 calls in the default window (10
	 * s of 1 s buckets), then open 5 s without jitter; so 4 failures on one replica never
	 * trip it alone, the same on three replicas trip the fleet window.
	 */
	static BreakerConfig failureRateOnly() {
		return BreakerConfig.builder()
			.consecutiveFailures(0)
			.failureRateThreshold(50)
			.minimumCalls(10)
			.openWait(Duration.ofSeconds(5))
			.openWaitJitter(0)
			.ticker(Ticker.system())
			.build();
	}

	/**
	 * The breaker defaults of every replica started without its own (at first
	 * {@link #threeFailures threeFailures(30s)}).
	 */
	Replicas defaults(BreakerConfig defaults) {
		this.defaults = defaults;
		return this;
	}

	/**
	 * Properties of every replica, added to those given before (at the field, then in the
	 * test: none is dropped).
	 */
	Replicas properties(String... properties) {
		List<String> all = new ArrayList<>(this.properties);
		all.addAll(List.of(properties));
		this.properties = List.copyOf(all);
		return this;
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		if (where == null) {
			redis = RedisServerHarness.start();
		}
	}

	/** A replica with this fleet's defaults, its properties and {@code properties}. */
	Replica start(String id, String... properties) {
		return start(id, defaults, properties);
	}

	/**
	 * A replica with these breaker defaults, this fleet's properties and
	 * {@code properties}.
	 */
	Replica start(String id, BreakerConfig defaults, String... properties) {
		List<String> all = new ArrayList<>(this.properties);
		all.addAll(List.of(properties));
		Replica replica = (where != null) ? Replica.start(id, defaults, withWhere(all))
				: Replica.start(redis(), id, defaults, all.toArray(String[]::new));
		started.add(replica);
		return replica;
	}

	private String[] withWhere(List<String> properties) {
		List<String> all = new ArrayList<>(where.get());
		all.addAll(properties);
		return all.toArray(String[]::new);
	}

	/** The embedded Redis this fleet started for the test. */
	RedisServerHarness redis() {
		if (redis == null) {
			throw new IllegalStateException("these replicas run on a Redis the test class set up");
		}
		return redis;
	}

	/**
	 * A connection to {@link #redis()} that sees and touches what the fleet keeps there.
	 */
	RedisAdmin admin() {
		if (admin == null) {
			admin = new RedisAdmin(redis());
		}
		return admin;
	}

	/**
	 * Closes the replicas started so far, in the order they started (a test that checks
	 * Redis after the fleet is gone calls it; the rest is closed after the test).
	 */
	void close() {
		started.forEach(Replica::close);
		started.clear();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		try {
			close();
		}
		finally {
			if (admin != null) {
				admin.close();
			}
			if (redis != null) {
				redis.close();
			}
		}
	}

}
