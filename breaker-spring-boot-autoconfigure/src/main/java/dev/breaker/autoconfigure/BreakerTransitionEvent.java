package dev.breaker.autoconfigure;

import dev.breaker.core.Transition;

import org.springframework.context.ApplicationEvent;

/**
 * Published for every state change of every breaker (tenant children too), on the thread
 * that caused it.
 */
public class BreakerTransitionEvent extends ApplicationEvent {

	private final Transition transition;

	/**
	 * Create a new event.
	 * @param source the registry the breaker belongs to
	 * @param transition the state change
	 */
	public BreakerTransitionEvent(Object source, Transition transition) {
		super(source);
		this.transition = transition;
	}

	/**
	 * The state change: breaker name, from, to, when and why.
	 * @return the transition
	 */
	public Transition transition() {
		return this.transition;
	}

	@Override
	public String toString() {
		return "BreakerTransitionEvent[" + this.transition + "]";
	}

}
