package dev.breaker.benchmarks;

import java.util.concurrent.Callable;

import dev.breaker.core.BreakerOpenException;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.function.CheckedSupplier;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One guarded call through each library's call wrapper, the way its README shows it: the
 * wrapper times and records the call, and when the breaker is open it throws its
 * exception, which the caller turns into the fallback. The naive breaker has no wrapper
 * and is left out.
 */
public abstract class WrappedCall extends Contenders {

	private Callable<String> callable;

	private CheckedSupplier<String> supplier;

	private FailsafeExecutor<Object> failsafeExecutor;

	@Override
	void wrap() {
		callable = dependency::call;
		supplier = dependency::call;
		failsafeExecutor = Failsafe.with(failsafe);
	}

	@Benchmark
	public void unprotected(Blackhole bh) throws Exception {
		bh.consume(callable.call());
	}

	@Benchmark
	public void breaker(Blackhole bh) throws Exception {
		try {
			bh.consume(breaker.call(callable));
		}
		catch (BreakerOpenException rejected) {
			bh.consume(FALLBACK);
		}
	}

	@Benchmark
	public void failsafe(Blackhole bh) {
		try {
			bh.consume(failsafeExecutor.get(supplier));
		}
		catch (CircuitBreakerOpenException rejected) {
			bh.consume(FALLBACK);
		}
	}

	@Benchmark
	public void r4jCountSynchronized(Blackhole bh) throws Exception {
		resilience4j(r4jCountSynchronized, bh);
	}

	@Benchmark
	public void r4jCountLockFree(Blackhole bh) throws Exception {
		resilience4j(r4jCountLockFree, bh);
	}

	@Benchmark
	public void r4jTimeSynchronized(Blackhole bh) throws Exception {
		resilience4j(r4jTimeSynchronized, bh);
	}

	@Benchmark
	public void r4jTimeLockFree(Blackhole bh) throws Exception {
		resilience4j(r4jTimeLockFree, bh);
	}

	private void resilience4j(CircuitBreaker r4j, Blackhole bh) throws Exception {
		try {
			bh.consume(r4j.executeCallable(callable));
		}
		catch (CallNotPermittedException rejected) {
			bh.consume(FALLBACK);
		}
	}

	/**
	 * Every breaker closed: the wrapper lets the call through and records its success.
	 */
	@Threads(1)
	public static class Closed extends WrappedCall {

		@Override
		boolean open() {
			return false;
		}

	}

	/** Every breaker open: the wrapper throws and the caller falls back. */
	@Threads(1)
	public static class Open extends WrappedCall {

		@Override
		boolean open() {
			return true;
		}

	}

}
