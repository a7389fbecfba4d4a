package dev.breaker.autoconfigure;

import dev.breaker.core.BreakerRegistry;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes every transition of every breaker of a registry as a
 * {@link BreakerTransitionEvent}.
 */
public class BreakerTransitionPublisher {

	/**
	 * Start publishing the registry's transitions.
	 * @param registry the registry whose breakers are watched (existing and future ones)
	 * @param publisher where the events go
	 */
	public BreakerTransitionPublisher(BreakerRegistry registry, ApplicationEventPublisher publisher) {
		registry.onTransition((transition) -> publisher.publishEvent(new BreakerTransitionEvent(registry, transition)));
	}

}
