package dev.breaker.actuate.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.Breaker;
import dev.breaker.core.CallDurations;
import dev.breaker.core.Outcome;

/**
 * {@code breaker_call_duration_seconds}: a Prometheus histogram of call durations per
 * breaker and outcome, read from the engine's {@link CallDurations} at scrape time, so a
 * call pays nothing for it.
 * <p>
 * Micrometer has no meter whose buckets can be read from elsewhere (its timers record
 * every call themselves), so this is a collector of the Prometheus registry behind
 * Micrometer's, in the same scrape. It follows the breaker meters' rules
 * ({@link MeteredBreakers}): a per-host child with meters is a breaker of its own, one
 * without has no histogram; a per-tenant child has none unless tenant tags are on (its
 * group has its latency), and with tenant tags every sample carries {@code tenant=""}. A
 * breaker that fails to read is logged and left out of that scrape.
 */
public class CallDurationCollector implements MultiCollector {

	/** The metric's name in Prometheus, without the _bucket, _count and _sum suffixes. */
	public static final String NAME = "breaker_call_duration_seconds";

	private static final Log logger = LogFactory.getLog(CallDurationCollector.class);

	private static final MetricMetadata METADATA = new MetricMetadata(NAME,
			"Duration of finished calls by outcome, from the engine's cumulative histogram", Unit.SECONDS);

	private final BreakerTree tree;

	private final MeteredBreakers metered;

	/**
	 * A histogram for every per-host child.
	 * @param tree the breakers to read
	 * @param tenantTags whether the other breaker meters carry a {@code tenant} tag
	 */
	public CallDurationCollector(BreakerTree tree, boolean tenantTags) {
		this(tree, new MeteredBreakers(tenantTags, true, Set.of()));
	}

	/**
	 * @param tree the breakers to read
	 * @param metered which children have meters, as {@link BreakerMetrics} was given
	 */
	public CallDurationCollector(BreakerTree tree, MeteredBreakers metered) {
		this.tree = tree;
		this.metered = metered;
	}

	@Override
	public MetricSnapshots collect() {
		List<HistogramDataPointSnapshot> points = new ArrayList<>();
		for (Breaker breaker : this.tree.breakers()) {
			CallDurations durations = breaker.durations();
			if (durations == null || !this.metered.measured(breaker)) {
				continue;
			}
			try {
				for (Outcome outcome : Outcome.values()) {
					points.add(point(breaker, durations, outcome));
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Could not read the call durations of breaker '" + breaker.name() + "'", ex);
			}
		}
		return MetricSnapshots.of(new HistogramSnapshot(METADATA, points));
	}

	@Override
	public List<String> getPrometheusNames() {
		return List.of(NAME);
	}

	private HistogramDataPointSnapshot point(Breaker breaker, CallDurations durations, Outcome outcome) {
		List<Duration> bounds = durations.bounds();
		double[] upper = new double[bounds.size() + 1];
		long[] counts = new long[bounds.size() + 1];
		long below = 0;
		for (int i = 0; i <= bounds.size(); i++) {
			// ascending: each count is at least the one before (CallDurations#count)
			long cumulative = durations.count(outcome, i);
			upper[i] = (i < bounds.size()) ? bounds.get(i).toNanos() / 1e9 : Double.POSITIVE_INFINITY;
			counts[i] = Math.max(0, cumulative - below);
			below = Math.max(below, cumulative);
		}
		return HistogramDataPointSnapshot.builder()
			.classicHistogramBuckets(ClassicHistogramBuckets.of(upper, counts))
			.sum(durations.totalSeconds(outcome))
			.labels(labels(breaker, outcome))
			.build();
	}

	private Labels labels(Breaker breaker, Outcome outcome) {
		String value = outcome.name().toLowerCase(Locale.ROOT);
		boolean tenantTags = this.metered.tenantTags();
		if (tenantTags && BreakerMetrics.isTenantChild(breaker)) {
			return Labels.of("name", breaker.group(), "outcome", value, "tenant", breaker.key());
		}
		if (tenantTags) {
			return Labels.of("name", breaker.name(), "outcome", value, "tenant", "");
		}
		return Labels.of("name", breaker.name(), "outcome", value);
	}

}
