package dev.breaker.sample.chaos;

/**
 * The body of {@code POST /chaos/{dependency}}.
 *
 * @param mode {@code healthy}, {@code slow}, {@code wedged}, {@code down} or
 * {@code flaky}
 * @param latencyMs how long a slow answer takes, in milliseconds (optional, mode
 * {@code slow})
 * @param failurePercent the share of failed requests, 0 to 100 (optional, mode
 * {@code flaky})
 */
public record ChaosRequest(String mode, Long latencyMs, Integer failurePercent) {
}
