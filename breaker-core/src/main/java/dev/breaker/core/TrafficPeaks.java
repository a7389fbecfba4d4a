package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import dev.breaker.core.internal.HourlyPeak;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The traffic of the last hour, for thresholds that follow it: the peak calls per window
 * (which raise the rate rules' minimum with {@code minimumCallsRatio}) and the peak
 * concurrent calls (which size the half-open probes with {@code halfOpenMaxProbesAuto}).
 */
final class TrafficPeaks {

	/*
	 * Nothing here runs per call. A release calls observe(), which returns after one
	 * opaque read unless its tick is new; the first release of a tick adds its duration
	 * to the latency sample (two atomic adds) and, the first time in a new bucket, one
	 * thread (the CAS winner on `rolled`) closes the bucket the samples belong to: the
	 * calls of the window that ended with it go to `callsPerWindow`, and its average
	 * concurrency to `concurrency`.
	 *
	 * Concurrency comes from Little's law (calls in flight on average = calls per second
	 * x mean duration): counting calls in flight exactly costs an atomic update per
	 * acquire and per release (track-in-flight), which a breaker with the default
	 * settings does not pay. The bucket's calls are in the window already; the mean
	 * duration is sampled, one call per tick (with the cached ticker: about a thousand
	 * samples a second, or every call of a quieter breaker). So the peak is the busiest
	 * bucket's average concurrency: probes are sized on normal peak concurrency, not on
	 * the current load.
	 *
	 * Every call of a bucket reaches observe() on a new tick, so the first call of a new
	 * bucket closes the last one that had calls: the samples taken since the last close
	 * belong to it. observe() runs before the call is recorded, because the new bucket
	 * reuses the ring slot of the closed window's oldest bucket: a call of the new bucket
	 * recorded by another thread before the closing thread reads that slot can still hide
	 * the oldest bucket, so a peak may miss up to one bucket's calls, never count a call
	 * twice. Races between the closing thread and samples of the new bucket move at most
	 * a sample or two between buckets. Concurrency is kept in thousandths.
	 */

	private static final VarHandle LAST_TICK;

	private static final VarHandle ROLLED;

	private static final VarHandle LATENCY_NANOS;

	private static final VarHandle SAMPLES;

	/**
	 * Probes as a share of the peak concurrent calls (a probe batch is 10% of normal peak
	 * concurrency).
	 */
	static final double PROBE_SHARE = 0.1;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			LAST_TICK = lookup.findVarHandle(TrafficPeaks.class, "lastTick", long.class);
			ROLLED = lookup.findVarHandle(TrafficPeaks.class, "rolled", long.class);
			LATENCY_NANOS = lookup.findVarHandle(TrafficPeaks.class, "latencyNanos", long.class);
			SAMPLES = lookup.findVarHandle(TrafficPeaks.class, "samples", long.class);
		}
		catch (ReflectiveOperationException e) {
			throw new ExceptionInInitializerError(e);
		}
	}

	private final BucketWindow window;

	private final int minimumCalls;

	private final double minimumCallsRatio;

	private final HourlyPeak callsPerWindow = new HourlyPeak();

	private final HourlyPeak concurrency = new HourlyPeak();

	private long lastTick = Long.MIN_VALUE;

	private long rolled;

	private long latencyNanos;

	private long samples;

	TrafficPeaks(BreakerConfig config, BucketWindow window, long now) {
		this.window = window;
		this.minimumCalls = config.minimumCalls();
		this.minimumCallsRatio = config.minimumCallsRatio();
		this.rolled = window.epoch(now);
	}

	/** Whether a config needs its traffic followed. */
	static boolean needed(BreakerConfig config) {
		return config.minimumCallsRatio() > 0 || config.halfOpenMaxProbesAuto();
	}

	/**
	 * A call of the state with window era {@code era} finished at {@code now} after
	 * {@code elapsedNanos}.
	 */
	void observe(long era, long now, long elapsedNanos) {
		if ((long) LAST_TICK.getOpaque(this) == now) {
			return;
		}
		LAST_TICK.setOpaque(this, now);
		long epoch = window.epoch(now);
		long last = (long) ROLLED.getOpaque(this);
		if (epoch > last && ROLLED.compareAndSet(this, last, epoch)) {
			close(last, era);
		}
		LATENCY_NANOS.getAndAdd(this, Math.max(0, elapsedNanos));
		SAMPLES.getAndAdd(this, 1L);
	}

	/**
	 * Closes bucket {@code epoch}: the calls of the window ending with it, and its
	 * average concurrency.
	 */
	private void close(long epoch, long era) {
		long latency = (long) LATENCY_NANOS.getAndSet(this, 0L);
		long sampled = (long) SAMPLES.getAndSet(this, 0L);
		long windowCalls = 0;
		long bucketCalls = 0;
		long at = epoch * window.bucketNanos();
		for (long e = epoch - window.buckets() + 1; e <= epoch; e++) {
			for (int kind = BucketWindow.SUCCESS; kind <= BucketWindow.THROTTLED; kind++) {
				long c = window.count(kind, e + era);
				if (kind <= BucketWindow.TIMEOUT) {
					windowCalls += c;
				}
				if (e == epoch) {
					bucketCalls += c;
				}
			}
		}
		callsPerWindow.record(at, windowCalls);
		double meanNanos = sampled == 0 ? 0 : (double) latency / sampled;
		double concurrent = bucketCalls * meanNanos / window.bucketNanos();
		concurrency.record(at, Math.round(concurrent * 1000)); // saturated by HourlyPeak
	}

	/**
	 * The most calls (successes, failures, timeouts) one window held over the last hour.
	 */
	long peakCallsPerWindow(long now) {
		return callsPerWindow.max(now);
	}

	/** The highest average concurrency of one bucket over the last hour. */
	double peakConcurrentCalls(long now) {
		return concurrency.max(now) / 1000.0;
	}

	/**
	 * The calls a rate rule needs now: max(minimumCalls, ratio x peak calls per window),
	 * saturated.
	 */
	int minimumCalls(long now) {
		if (minimumCallsRatio == 0) {
			return minimumCalls; // auto probes alone: no need to read the peaks
		}
		double scaled = Math.ceil(minimumCallsRatio * peakCallsPerWindow(now));
		return (int) Math.max(minimumCalls, Math.min(Integer.MAX_VALUE, scaled));
	}

	/**
	 * The probes an episode starting now gets with auto probes: 10% of the peak
	 * concurrency, in [1, 32].
	 */
	int maxProbes(long now) {
		double probes = Math.ceil(PROBE_SHARE * peakConcurrentCalls(now) - 1e-9);
		return (int) Math.max(1, Math.min(ConfigValidation.MAX_PROBES, probes));
	}

}
