package dev.breaker.redis;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;

/**
 * Steady calls to a healthy dependency through one replica's breaker, the traffic a
 * replica behind a load balancer gets.
 */
public final class SteadyTraffic {

	private SteadyTraffic() {
	}

	/**
	 * Calls through {@code breaker} every {@code millis} until {@code running} is false
	 * (or the thread is interrupted). A rejected call is a checkout queued for later; any
	 * other failure fails the test.
	 */
	public static void callEvery(Breaker breaker, long millis, AtomicBoolean running) {
		while (running.get()) {
			try {
				breaker.call(() -> "healthy");
			}
			catch (BreakerOpenException rejected) {
				// still open here: the checkout is queued for later
			}
			catch (Exception unexpected) {
				throw new AssertionError(unexpected);
			}
			try {
				TimeUnit.MILLISECONDS.sleep(millis);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

}
