package dev.breaker.benchmarks.fleet;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.RedisServerHarness;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A call through a closed breaker with fleet mode off and on (a replica connected to a
 * real Redis, the sync thread listening). Fleet mode adds nothing to the call path by
 * design; this measures that it stays so.
 *
 * <pre>java -cp ... org.openjdk.jmh.Main 'fleet.FleetCallPath' -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FleetCallPath {

	@Param({ "off", "on" })
	public String shared;

	private RedisServerHarness redis;

	private FleetSync sync;

	private Breaker breaker;

	private final Callable<String> dependency = () -> "ok";

	@Setup(Level.Trial)
	public void setUp() throws InterruptedException {
		BreakerRegistry registry = BreakerRegistry.builder().build();
		if (shared.equals("on")) {
			redis = RedisServerHarness.start();
			sync = redis.join(registry, "bench", 1);
		}
		breaker = registry.breaker("payments");
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		if (sync != null) {
			sync.close();
			redis.close();
		}
	}

	@Benchmark
	public String call() throws Exception {
		return breaker.call(dependency);
	}

	@Benchmark
	public boolean acquireRelease() {
		Permit permit = breaker.acquire();
		breaker.release(permit, Outcome.SUCCESS, 1_000);
		return permit.granted();
	}

}
