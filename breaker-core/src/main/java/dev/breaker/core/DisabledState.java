package dev.breaker.core;

import java.time.Instant;

/**
 * DISABLED: an operator's override; calls flow and are recorded, no rule trips the
 * breaker.
 */
final class DisabledState extends BreakerState {

	DisabledState(Breaker owner, BreakerState previous, long now, Instant since) {
		super(owner, State.DISABLED, previous, previous.streak, now, since, false, eraAfter(previous));
	}

}
