package dev.breaker.observation;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import org.jspecify.annotations.Nullable;

/**
 * Told, on the caller's thread, of every call the Spring layer guards
 * ({@code @CircuitGuarded} methods and per-host HTTP breakers): when it starts and when
 * its breaker rejects it. Tracing puts these on the current observation.
 */
public interface CallObserver {

	/** Observes nothing. */
	CallObserver NONE = new CallObserver() {
	};

	/**
	 * A guarded call is about to ask its breaker.
	 * @param name the breaker's name as configured: the annotation's name (never a tenant
	 * child's), or {@code http:<host>}
	 * @param breaker the breaker the name stands for
	 */
	default void onCall(String name, Breaker breaker) {
	}

	/**
	 * The breaker (or its parent) rejected the call.
	 * @param name as for {@link #onCall}
	 * @param rejection what the call fails with, or hands its fallbacks
	 */
	default void onRejected(String name, BreakerOpenException rejection) {
	}

	/**
	 * One observer telling all of {@code observers}; one that throws is logged and never
	 * breaks the call.
	 * @param observers the observers, in order
	 * @return {@link #NONE} for none
	 */
	static CallObserver of(List<? extends CallObserver> observers) {
		if (observers.isEmpty()) {
			return NONE;
		}
		CallObserver[] all = observers.toArray(new CallObserver[0]);
		Log logger = LogFactory.getLog(CallObserver.class);
		return new CallObserver() {

			@Override
			public void onCall(String name, Breaker breaker) {
				tellAll(all, name, breaker, null, logger);
			}

			@Override
			public void onRejected(String name, BreakerOpenException rejection) {
				tellAll(all, name, null, rejection, logger);
			}

		};
	}

	/**
	 * Tells each of {@code all} of a call on {@code breaker} or, when {@code rejection}
	 * is given, of its rejection, each kind on a call site of its own (the guarded call
	 * stays free of allocation only while the JIT inlines through it, see
	 * {@link dev.breaker.core.Listeners}).
	 */
	private static void tellAll(CallObserver[] all, String name, @Nullable Breaker breaker,
			@Nullable BreakerOpenException rejection, Log logger) {
		for (CallObserver observer : all) {
			try {
				if (breaker != null) {
					observer.onCall(name, breaker);
				}
				else if (rejection != null) {
					observer.onRejected(name, rejection);
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Call observer " + observer + " threw for breaker '" + name + "'", ex);
			}
		}
	}

}
