package dev.breaker.core;

import java.time.Instant;

/** FORCED_OPEN: an operator's override; every call is rejected until another override. */
final class ForcedOpenState extends BreakerState {

	ForcedOpenState(Breaker owner, BreakerState previous, long now, Instant since) {
		super(owner, State.FORCED_OPEN, previous, previous.streak, now, since, false, eraAfter(previous));
	}

}
