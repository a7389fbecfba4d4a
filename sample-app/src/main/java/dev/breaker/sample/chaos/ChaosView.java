package dev.breaker.sample.chaos;

import dev.breaker.sample.dependency.Chaos;
import dev.breaker.sample.dependency.DependencyServer;

/**
 * What {@code /chaos} tells about one dependency: its chaos and what it has served so
 * far.
 *
 * @param mode the current chaos mode
 * @param latencyMs the latency of a slow answer, in milliseconds
 * @param failurePercent the share of requests a flaky dependency fails
 * @param answered requests answered normally since start
 * @param failed requests answered with a 5xx since start
 * @param wedged requests held without an answer since start
 * @param inProgress requests the dependency is working on (or holding) now
 * @param url where the dependency listens
 */
public record ChaosView(String mode, long latencyMs, int failurePercent, long answered, long failed, long wedged,
		int inProgress, String url) {

	static ChaosView of(DependencyServer dependency) {
		Chaos chaos = dependency.chaos();
		DependencyServer.Counts counts = dependency.counts();
		return new ChaosView(chaos.mode().label(), chaos.slowLatency().toMillis(), chaos.failurePercent(),
				counts.answered(), counts.failed(), counts.wedged(), counts.inProgress(),
				dependency.baseUri().toString());
	}

}
