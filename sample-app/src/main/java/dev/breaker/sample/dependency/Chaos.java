package dev.breaker.sample.dependency;

import java.time.Duration;

/**
 * The chaos applied to one dependency: a mode and its parameters.
 *
 * @param mode how the dependency behaves
 * @param slowLatency how long a {@link ChaosMode#SLOW} answer takes
 * @param failurePercent the share of requests a {@link ChaosMode#FLAKY} dependency fails,
 * 0 to 100
 */
public record Chaos(ChaosMode mode, Duration slowLatency, int failurePercent) {

	public Chaos {
		if (mode == null) {
			throw new IllegalArgumentException("chaos mode must be given");
		}
		if (slowLatency == null || slowLatency.isNegative() || slowLatency.compareTo(Duration.ofMinutes(1)) > 0) {
			throw new IllegalArgumentException("slow latency must be between 0 and 1m but was " + slowLatency);
		}
		if (failurePercent < 0 || failurePercent > 100) {
			throw new IllegalArgumentException("failure percent must be between 0 and 100 but was " + failurePercent);
		}
	}

	/** No chaos: the dependency answers after its usual latency. */
	public static Chaos healthy(Duration slowLatency, int failurePercent) {
		return new Chaos(ChaosMode.HEALTHY, slowLatency, failurePercent);
	}

	public Chaos withMode(ChaosMode next) {
		return new Chaos(next, slowLatency, failurePercent);
	}

}
