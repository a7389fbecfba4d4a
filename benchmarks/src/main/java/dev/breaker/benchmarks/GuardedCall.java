package dev.breaker.benchmarks;

import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One guarded call through each library's permission API: ask, call the dependency,
 * record the success (with the elapsed time where the library takes one), or take the
 * fallback when refused.
 *
 * <p>
 * This is what each library's own call wrapper does, minus the wrapper: every library's
 * cheapest path. {@link WrappedCall} measures the wrappers themselves.
 */
public abstract class GuardedCall extends Contenders {

	@Benchmark
	public void unprotected(Blackhole bh) {
		bh.consume(dependency.call());
	}

	@Benchmark
	public void breaker(Blackhole bh) {
		Permit permit = breaker.acquire();
		if (!permit.granted()) {
			bh.consume(FALLBACK);
			return;
		}
		long start = breaker.nanos();
		String reply = dependency.call();
		breaker.release(permit, Outcome.SUCCESS, breaker.nanos() - start);
		bh.consume(reply);
	}

	@Benchmark
	public void naive(Blackhole bh) {
		if (!naive.tryAcquire()) {
			bh.consume(FALLBACK);
			return;
		}
		String reply = dependency.call();
		naive.onSuccess();
		bh.consume(reply);
	}

	@Benchmark
	public void failsafe(Blackhole bh) {
		if (!failsafe.tryAcquirePermit()) {
			bh.consume(FALLBACK);
			return;
		}
		String reply = dependency.call();
		failsafe.recordSuccess();
		bh.consume(reply);
	}

	@Benchmark
	public void r4jCountSynchronized(Blackhole bh) {
		resilience4j(r4jCountSynchronized, bh);
	}

	@Benchmark
	public void r4jCountLockFree(Blackhole bh) {
		resilience4j(r4jCountLockFree, bh);
	}

	@Benchmark
	public void r4jTimeSynchronized(Blackhole bh) {
		resilience4j(r4jTimeSynchronized, bh);
	}

	@Benchmark
	public void r4jTimeLockFree(Blackhole bh) {
		resilience4j(r4jTimeLockFree, bh);
	}

	/**
	 * What Resilience4j's own {@code decorateCallable} does, with
	 * {@code tryAcquirePermission} instead of an exception.
	 */
	private void resilience4j(CircuitBreaker r4j, Blackhole bh) {
		if (!r4j.tryAcquirePermission()) {
			bh.consume(FALLBACK);
			return;
		}
		long start = r4j.getCurrentTimestamp();
		String reply = dependency.call();
		r4j.onSuccess(r4j.getCurrentTimestamp() - start, r4j.getTimestampUnit());
		bh.consume(reply);
	}

}
