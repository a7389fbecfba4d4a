package dev.breaker.sample.demo;

import java.util.EnumMap;
import java.util.Map;

import dev.breaker.sample.demo.LoadGenerator.Endpoint;
import dev.breaker.sample.demo.LoadGenerator.Result;
import dev.breaker.sample.demo.LoadGenerator.Sample;

/**
 * Latencies and outcomes of a set of requests: one second of the demo, or one phase of
 * it.
 */
final class PhaseStats {

	private final Map<Endpoint, Latencies> latencies = new EnumMap<>(Endpoint.class);

	private final Map<Endpoint, Map<Result, Integer>> results = new EnumMap<>(Endpoint.class);

	PhaseStats() {
		for (Endpoint endpoint : Endpoint.values()) {
			this.latencies.put(endpoint, new Latencies());
			this.results.put(endpoint, new EnumMap<>(Result.class));
		}
	}

	void add(Sample sample) {
		if (sample.result() != Result.NOT_SENT) {
			this.latencies.get(sample.endpoint()).add(sample.latencyNanos());
		}
		this.results.get(sample.endpoint()).merge(sample.result(), 1, Integer::sum);
	}

	Latencies latencies(Endpoint endpoint) {
		return this.latencies.get(endpoint);
	}

	int count(Endpoint endpoint, Result result) {
		return this.results.get(endpoint).getOrDefault(result, 0);
	}

	int count(Result result) {
		int count = 0;
		for (Endpoint endpoint : Endpoint.values()) {
			count += count(endpoint, result);
		}
		return count;
	}

	int total(Endpoint endpoint) {
		return this.results.get(endpoint).values().stream().mapToInt(Integer::intValue).sum();
	}

	int total() {
		int total = 0;
		for (Endpoint endpoint : Endpoint.values()) {
			total += total(endpoint);
		}
		return total;
	}

	/**
	 * Failed requests: error answers, time-outs and requests the generator could not
	 * send.
	 */
	int failed() {
		return count(Result.ERROR) + count(Result.TIMEOUT) + count(Result.NOT_SENT);
	}

	/**
	 * The share of requests to an endpoint answered by the service or a fallback, in
	 * percent; -1 when none.
	 */
	double answeredPercent(Endpoint endpoint) {
		int total = total(endpoint);
		if (total == 0) {
			return -1;
		}
		return 100.0 * (count(endpoint, Result.OK) + count(endpoint, Result.FALLBACK)) / total;
	}

}
