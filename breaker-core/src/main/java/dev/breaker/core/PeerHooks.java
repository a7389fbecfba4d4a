package dev.breaker.core;

import dev.breaker.core.internal.EngineAccess;
import java.time.Duration;

/**
 * The engine side of {@link dev.breaker.core.spi.SharedStateHooks}: each hook on the
 * package-private method.
 */
final class PeerHooks implements EngineAccess.Hooks {

	@Override
	public void openFromPeer(Breaker breaker, Duration remaining, String reason) {
		breaker.openFromPeer(remaining, reason);
	}

	@Override
	public void closeFromPeer(Breaker breaker, String reason) {
		breaker.closeFromPeer(reason);
	}

	@Override
	public void tripNow(Breaker breaker, String reason) {
		breaker.tripNow(reason);
	}

	@Override
	public void holdOpen(Breaker breaker, Duration wait) {
		breaker.retryAfter(wait);
	}

	@Override
	public void limitProbes(Breaker breaker, int max) {
		breaker.limitProbes(max);
	}

}
