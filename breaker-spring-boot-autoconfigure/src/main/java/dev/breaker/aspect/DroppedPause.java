package dev.breaker.aspect;

import java.util.concurrent.RejectedExecutionException;

import dev.breaker.core.BreakerNames;

/**
 * What a guarded call ends with when its retry's pause was dropped by a scheduler closed
 * with its context, and the value it retried, a per-call response, was freed when the
 * pause was taken: the call cannot end with that value, which is gone.
 */
final class DroppedPause extends RejectedExecutionException {

	DroppedPause(String breaker) {
		super("breaker '" + BreakerNames.printable(breaker)
				+ "': retry not made, its pause was dropped by a closed scheduler after the value retried was freed");
	}

}
