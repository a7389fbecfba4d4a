package dev.breaker.core;

import java.time.Instant;

/**
 * One change of a breaker's state, with why it happened.
 *
 * @param breaker the breaker's full name
 * @param from the state it left
 * @param to the state it entered
 * @param at wall-clock time of the change
 * @param reason which rule and which numbers, e.g. {@code "consecutive failures 5 >= 5"}
 * @param generation the generation of the new state (bumped on every transition)
 * @param remote whether a peer replica caused it (fleet mode)
 */
public record Transition(String breaker, State from, State to, Instant at, String reason, long generation,
		boolean remote) {

	/**
	 * The record's form, with the breaker's name and the reason printable
	 * ({@link BreakerNames#printable}).
	 */
	@Override
	public String toString() {
		return "Transition[breaker=" + BreakerNames.printable(breaker) + ", from=" + from + ", to=" + to + ", at=" + at
				+ ", reason=" + (reason == null ? null : BreakerNames.printable(reason)) + ", generation=" + generation
				+ ", remote=" + remote + "]";
	}
}
