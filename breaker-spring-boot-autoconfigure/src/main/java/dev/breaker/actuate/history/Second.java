package dev.breaker.actuate.history;

import java.time.Duration;
import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

import dev.breaker.core.State;

/**
 * One second of one breaker's history.
 *
 * @param at when the second ended (wall clock, to the second)
 * @param state the least healthy state the breaker was in during the second (FORCED_OPEN,
 * OPEN, HALF_OPEN, DISABLED, CLOSED, in that order), so an open spell shorter than a
 * second still shows
 * @param calls calls that finished in the second and count toward the rates (successes,
 * failures, timeouts)
 * @param failures failed calls among them
 * @param timeouts timed-out calls among them
 * @param slowCalls slow calls among them
 * @param rejected calls the breaker rejected in the second
 * @param failureRate the failure rate of the window at the end of the second, percent:
 * what the failure-rate rule compared with its threshold
 * @param p50 the median duration of the calls that finished in the second (all outcomes),
 * within about 10 %; null without calls or when the breaker keeps no latency
 * @param p99 the 99th percentile, likewise
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Second(Instant at, State state, long calls, long failures, long timeouts, long slowCalls, long rejected,
		double failureRate, @Nullable Duration p50, @Nullable Duration p99) {

}
