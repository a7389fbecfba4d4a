package dev.breaker.autoconfigure.actuate;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Drives breakers the way a failing dependency would. */
final class Calls {

	private Calls() {
	}

	static void fail(Breaker breaker, int times) {
		for (int i = 0; i < times; i++) {
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> breaker.call(() -> {
				throw new IllegalStateException("dependency down");
			}));
		}
	}

	static void succeed(Breaker breaker, int times) throws Exception {
		for (int i = 0; i < times; i++) {
			breaker.call(() -> "ok");
		}
	}

	/** Calls that took {@code nanos} each on the breaker's ticker. */
	static void timed(Breaker breaker, Outcome outcome, long nanos, int times) {
		for (int i = 0; i < times; i++) {
			Permit permit = breaker.acquire();
			breaker.release(permit, outcome, nanos);
		}
	}

	static void rejected(Breaker breaker, int times) {
		for (int i = 0; i < times; i++) {
			assertThatExceptionOfType(BreakerOpenException.class).isThrownBy(() -> breaker.call(() -> "never runs"));
		}
	}

}
