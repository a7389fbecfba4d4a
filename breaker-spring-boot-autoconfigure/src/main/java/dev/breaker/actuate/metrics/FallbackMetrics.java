package dev.breaker.actuate.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.breaker.aspect.FallbackObserver;
import dev.breaker.core.BreakerNames;

/**
 * Counts the fallbacks the interceptor ran as
 * {@code breaker_fallbacks_total{name,fallback,result}}.
 * <p>
 * Fallbacks run off the closed path, so looking the counter up per fallback is
 * affordable; a registry that fails is logged and never breaks the fallback.
 */
public class FallbackMetrics implements FallbackObserver {

	private static final Log logger = LogFactory.getLog(FallbackMetrics.class);

	private final MeterRegistry registry;

	public FallbackMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void onFallback(String breaker, String fallbackMethod, boolean succeeded) {
		try {
			Counter.builder("breaker.fallbacks")
				.description("Fallbacks run, by fallback method and result")
				.tag("name", BreakerNames.printable(breaker))
				.tag("fallback", fallbackMethod)
				.tag("result", succeeded ? "success" : "failure")
				.register(this.registry)
				.increment();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not count fallback '" + fallbackMethod + "' of breaker '"
					+ BreakerNames.printable(breaker) + "'", ex);
		}
	}

}
