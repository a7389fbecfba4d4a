package dev.breaker.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import dev.breaker.aspect.FallbackObserver;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.Transition;

/**
 * Puts what breakers do on the Micrometer observation current on the calling thread (the
 * HTTP request, the client exchange, the user's own observation), never one of its own:
 * no span per call.
 * <p>
 * A guarded call gets the key values {@value #NAME} and {@value #STATE} (the attribute
 * names proposed for circuit breakers in OpenTelemetry's semantic conventions, issue
 * 2355); a rejection is the event {@value #REJECTED}, a fallback that answered
 * {@value #FALLBACK}, and every transition, on whatever observation is current on the
 * thread that caused it, {@value #TRANSITION}. Each event's contextual name (what a span
 * records) adds the breaker, and for a transition the two states.
 * <p>
 * The key values are high-cardinality ones: spans carry them, metrics do not. As
 * low-cardinality ones they would become tags of the enclosing observation's timer,
 * present on some requests and not on others, and Micrometer's Prometheus registry drops
 * a meter whose tag keys differ from the first one registered under its name: guarded and
 * unguarded requests would no longer both be in {@code http_server_requests_seconds}.
 */
public class BreakerObservations implements CallObserver, FallbackObserver {

	/** The breaker's name. */
	public static final String NAME = "circuitbreaker.name";

	/** The breaker's state when the call asked it. */
	public static final String STATE = "circuitbreaker.state";

	/** The breaker rejected the call. */
	public static final String REJECTED = "breaker.rejected";

	/** A fallback answered for the call. */
	public static final String FALLBACK = "breaker.fallback";

	/** A breaker changed state. */
	public static final String TRANSITION = "breaker.transition";

	private final ObservationRegistry registry;

	public BreakerObservations(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void onCall(String name, Breaker breaker) {
		Observation observation = current();
		if (observation != null) {
			observation.highCardinalityKeyValue(NAME, name);
			observation.highCardinalityKeyValue(STATE, breaker.state().name());
		}
	}

	@Override
	public void onRejected(String name, BreakerOpenException rejection) {
		event(REJECTED, REJECTED + " " + name);
	}

	@Override
	public void onFallback(String breaker, String fallbackMethod, boolean succeeded) {
		if (succeeded) {
			event(FALLBACK, FALLBACK + " " + breaker + " " + fallbackMethod);
		}
	}

	/** Puts a transition on the observation current on the thread that caused it. */
	public void onTransition(Transition transition) {
		event(TRANSITION, TRANSITION + " " + transition.breaker() + " " + transition.from() + " -> " + transition.to());
	}

	private void event(String name, String contextualName) {
		Observation observation = current();
		if (observation != null) {
			observation.event(Observation.Event.of(name, contextualName));
		}
	}

	private Observation current() {
		Observation observation = this.registry.getCurrentObservation();
		return (observation != null && !observation.isNoop()) ? observation : null;
	}

}
