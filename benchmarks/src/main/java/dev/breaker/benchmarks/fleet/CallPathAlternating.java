package dev.breaker.benchmarks.fleet;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.RedisServerHarness;

/**
 * The closed call path with fleet mode off and on, measured alternately in one JVM: on a
 * loaded machine, load drifts between JMH's runs of one parameter and the next by more
 * than the effect looked for, so here each round of the shared breaker is paired with a
 * round of the local one run right before it, and the report gives the median of the
 * per-pair ratios besides each mode's median.
 *
 * <pre>java -cp ... dev.breaker.benchmarks.fleet.CallPathAlternating [pairs=40] [calls-per-round=5000000]</pre>
 */
public final class CallPathAlternating {

	private static volatile Object sink;

	private CallPathAlternating() {
	}

	public static void main(String[] args) throws Exception {
		int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 40;
		int calls = args.length > 1 ? Integer.parseInt(args[1]) : 5_000_000;
		int warmUp = 10;
		try (RedisServerHarness redis = RedisServerHarness.start()) {
			Breaker local = BreakerRegistry.builder().build().breaker("payments");
			BreakerRegistry fleetRegistry = BreakerRegistry.builder().build();
			try (FleetSync sync = redis.join(fleetRegistry, "bench", 1)) {
				Breaker shared = fleetRegistry.breaker("payments");
				Callable<String> dependency = () -> "ok";
				double[] off = new double[pairs];
				double[] on = new double[pairs];
				double[] ratio = new double[pairs];
				for (int i = -warmUp; i < pairs; i++) {
					double offNs = round(local, dependency, calls);
					double onNs = round(shared, dependency, calls);
					if (i >= 0) {
						off[i] = offNs;
						on[i] = onNs;
						ratio[i] = onNs / offNs;
					}
				}
				System.out.printf(Locale.ROOT, "closed call path, %d alternating pairs of %d calls, %d cores:%n", pairs,
						calls, Runtime.getRuntime().availableProcessors());
				System.out.printf(Locale.ROOT, "  fleet mode off: median %.1f ns/call (p25 %.1f, p75 %.1f)%n",
						q(off, .5), q(off, .25), q(off, .75));
				System.out.printf(Locale.ROOT, "  fleet mode on:  median %.1f ns/call (p25 %.1f, p75 %.1f)%n",
						q(on, .5), q(on, .25), q(on, .75));
				System.out.printf(Locale.ROOT, "  on/off per pair: median %.3f (p25 %.3f, p75 %.3f)%n", q(ratio, .5),
						q(ratio, .25), q(ratio, .75));
			}
		}
	}

	private static double round(Breaker breaker, Callable<String> dependency, int calls) throws Exception {
		Object last = null;
		long start = System.nanoTime();
		for (int i = 0; i < calls; i++) {
			last = breaker.call(dependency);
		}
		long elapsed = System.nanoTime() - start;
		sink = last;
		return (double) elapsed / calls;
	}

	private static double q(double[] values, double quantile) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[(int) Math.min(sorted.length - 1, Math.round(quantile * (sorted.length - 1)))];
	}

}
