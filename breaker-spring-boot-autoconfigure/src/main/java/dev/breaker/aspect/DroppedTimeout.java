package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import dev.breaker.core.BreakerNames;

/**
 * What an asynchronous attempt ends with when its timeout was dropped by a scheduler
 * closed with its context while the attempt was pending: nothing would end an attempt
 * that hangs any more, so it ends now, as if its caller gave up (the dependency did not
 * fail: the permit is handed back as IGNORED, no retry and no fallback follow).
 */
final class DroppedTimeout extends RejectedExecutionException {

	DroppedTimeout(String breaker, Duration timeout) {
		super("breaker '" + BreakerNames.printable(breaker) + "': attempt ended, its timeout (" + timeout
				+ ") was dropped by a closed scheduler");
	}

}
