package dev.breaker.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.Snapshot;
import dev.breaker.core.Snapshot.BucketCounts;
import dev.breaker.core.Snapshot.Probes;
import dev.breaker.core.Transition;

/**
 * One breaker's full {@link Snapshot} in a form that renders as plain JSON.
 * <p>
 * The snapshot's {@link BreakerConfig} holds a ticker, a clock and a classifier that have
 * no useful JSON form, so the effective settings are listed by name instead, durations in
 * ISO-8601.
 *
 * @param name the breaker's full name, printable
 * @param state the current state
 * @param since when the breaker entered that state
 * @param openUntil when an open breaker lets probes through, null unless OPEN
 * @param calls finished calls in the window that count toward the rates
 * @param failures failed calls in the window
 * @param timeouts timed-out calls in the window
 * @param ignored calls in the window that count neither way
 * @param throttled throttled calls in the window
 * @param slowCalls slow calls in the window
 * @param failureRate failure rate in the window, percent (timeouts weighted)
 * @param slowCallRate slow-call rate in the window, percent
 * @param latency p50, p90, p99, p99.9 and max of the durations of the calls in the window
 * (ISO-8601), null when the breaker keeps no latency
 * @param consecutiveFailures failures in a row
 * @param inFlight calls started and not yet finished
 * @param probes half-open probe progress
 * @param trips how many times the breaker has tripped
 * @param buckets the window's counts per bucket, oldest first
 * @param transitions the recent transitions with their reasons, most recent last,
 * printable
 * @param config the effective settings
 * @param fleet what this replica knows of the breaker's state shared with other replicas
 * (fleet mode), null and left out of the JSON when breakers do not share state
 * @param retryBudget the retry budget over the window (a tenant child shows its group's,
 * which it shares)
 * @param traffic the thresholds that follow traffic: the calls a rate rule needs now, the
 * probes of a half-open episode, and the peaks of the last hour they follow
 */
public record SnapshotDescriptor(String name, String state, Instant since, Instant openUntil, long calls, long failures,
		long timeouts, long ignored, long throttled, long slowCalls, double failureRate, double slowCallRate,
		@Nullable Map<String, String> latency, int consecutiveFailures, int inFlight, Probes probes, long trips,
		List<BucketCounts> buckets, List<TransitionDescriptor> transitions, Map<String, Object> config,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, @Nullable Object> fleet,
		RetryBudget retryBudget, Traffic traffic) {

	/**
	 * The retry budget: {@code retries} made in the window of the {@code allowed}
	 * ({@code ratio} x {@code firstAttempts} + {@code minPerSecond} x window seconds).
	 *
	 * @param breaker whose budget it is: the breaker's own, or its group's for a tenant
	 * child
	 * @param firstAttempts calls in the window, less retries the breaker recorded as
	 * calls
	 * @param allowed retries the window allows now
	 * @param retries retries made in the window
	 * @param remaining retries still allowed now
	 * @param ratio the share of first attempts retries may add
	 * @param minPerSecond the retries per second allowed whatever the traffic
	 */
	public record RetryBudget(String breaker, long firstAttempts, long allowed, long retries, long remaining,
			double ratio, double minPerSecond) {

	}

	/**
	 * Thresholds that follow traffic.
	 *
	 * @param minimumCalls the calls the failure-rate and slow-call rules need now:
	 * max(minimum-calls, minimum-calls-ratio x peakCallsPerWindow)
	 * @param maxProbes the most concurrent probes of the current half-open episode, or of
	 * one starting now (10% of peakConcurrentCalls with max-probes: auto)
	 * @param tracked whether the peaks are followed (minimum-calls-ratio or max-probes:
	 * auto set)
	 * @param peakCallsPerWindow the most calls one window held over the last hour
	 * @param peakConcurrentCalls the highest average concurrency of one bucket over the
	 * last hour
	 */
	public record Traffic(int minimumCalls, int maxProbes, boolean tracked, long peakCallsPerWindow,
			double peakConcurrentCalls) {

	}

	/**
	 * One {@link Transition}, its breaker's name and its reason printable.
	 *
	 * @param breaker the breaker's full name
	 * @param from the state it left
	 * @param to the state it entered
	 * @param at when
	 * @param reason which rule and which numbers
	 * @param generation the generation of the new state
	 * @param remote whether a peer replica caused it
	 */
	public record TransitionDescriptor(String breaker, String from, String to, Instant at, String reason,
			long generation, boolean remote) {

		static TransitionDescriptor of(Transition t) {
			return new TransitionDescriptor(BreakerNames.printable(t.breaker()), t.from().name(), t.to().name(), t.at(),
					(t.reason() != null) ? BreakerNames.printable(t.reason()) : null, t.generation(), t.remote());
		}

	}

	static SnapshotDescriptor of(Snapshot s) {
		return of(s, null);
	}

	static SnapshotDescriptor of(Snapshot s, @Nullable Map<String, @Nullable Object> fleet) {
		return new SnapshotDescriptor(BreakerNames.printable(s.name()), s.state().name(), s.since(), s.openUntil(),
				s.calls(), s.failures(), s.timeouts(), s.ignored(), s.throttled(), s.slowCalls(), s.failureRate(),
				s.slowCallRate(), latency(s.latency()), s.consecutiveFailures(), s.inFlight(), s.probes(), s.trips(),
				s.buckets(), s.transitions().stream().map(TransitionDescriptor::of).toList(), settings(s.config()),
				fleet, budget(s), traffic(s.traffic()));
	}

	private static @Nullable Map<String, String> latency(Snapshot.@Nullable Latency latency) {
		if (latency == null) {
			return null;
		}
		Map<String, String> durations = new LinkedHashMap<>();
		durations.put("p50", iso(latency.p50()));
		durations.put("p90", iso(latency.p90()));
		durations.put("p99", iso(latency.p99()));
		durations.put("p999", iso(latency.p999()));
		durations.put("max", iso(latency.max()));
		return durations;
	}

	private static RetryBudget budget(Snapshot s) {
		Snapshot.RetryBudget b = s.retryBudget();
		return new RetryBudget(BreakerNames.printable(b.breaker()), b.firstAttempts(), b.allowed(), b.retries(),
				b.remaining(), s.config().retryBudgetRatio(), s.config().retryBudgetMinPerSecond());
	}

	private static Traffic traffic(Snapshot.Traffic t) {
		return new Traffic(t.minimumCalls(), t.maxProbes(), t.tracked(), t.peakCallsPerWindow(),
				t.peakConcurrentCalls());
	}

	/**
	 * Every engine setting of the table ({@link BreakerSetting}), by its setting name.
	 */
	private static Map<String, Object> settings(BreakerConfig c) {
		Map<String, Object> settings = new LinkedHashMap<>();
		for (BreakerSetting setting : BreakerSetting.of(BreakerSetting.Scope.ENGINE)) {
			Object value = setting.read(c);
			settings.put(setting.settingName(), (value instanceof Duration duration) ? iso(duration) : value);
		}
		return settings;
	}

	private static String iso(Duration duration) {
		return duration.toString();
	}

}
