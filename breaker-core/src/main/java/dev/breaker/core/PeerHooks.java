package dev.breaker.core;

import dev.breaker.core.internal.EngineAccess;
import java.time.Duration;
import java.util.Objects;

/**
 * The engine side of {@link dev.breaker.core.spi.SharedStateHooks}: a peer replica's
 * verdicts, and a store's holds and probe shares, applied to a breaker.
 */
final class PeerHooks implements EngineAccess.Hooks {

	/** A close of whichever open the breaker is in. */
	private static final long ANY_GENERATION = -1;

	/**
	 * A peer tripped: CLOSED or HALF_OPEN moves to OPEN until now + remaining; other
	 * states are left alone.
	 */
	@Override
	public void openFromPeer(Breaker breaker, Duration remaining, String reason) {
		Objects.requireNonNull(remaining, "remaining");
		for (;;) {
			BreakerState s = breaker.current();
			if (s.state != State.CLOSED && s.state != State.HALF_OPEN) {
				return;
			}
			OpenState open = new OpenState(breaker, s, s.streak + 1, breaker.now(), breaker.config().clock().instant(),
					Overrides.clamped(breaker, remaining));
			if (breaker.moveTo(s, open, reason, true)) {
				return;
			}
		}
	}

	/** A peer closed: OPEN or HALF_OPEN moves to CLOSED; other states are left alone. */
	@Override
	public void closeFromPeer(Breaker breaker, String reason) {
		closeFromPeer(breaker, reason, ANY_GENERATION);
	}

	/**
	 * As above, only while the breaker's state is the one of {@code generation}
	 * ({@link #ANY_GENERATION}: whichever).
	 */
	@Override
	public void closeFromPeer(Breaker breaker, String reason, long generation) {
		for (;;) {
			BreakerState s = breaker.current();
			if (s.state != State.OPEN && s.state != State.HALF_OPEN
					|| generation != ANY_GENERATION && s.generation != generation) {
				return;
			}
			ClosedState closed = new ClosedState(breaker, s, breaker.now(), breaker.config().clock().instant());
			if (breaker.moveTo(s, closed, reason, true)) {
				return;
			}
		}
	}

	@Override
	public void tripNow(Breaker breaker, String reason) {
		breaker.verdicts().tripNow(breaker.now(), Objects.requireNonNull(reason, "reason"));
	}

	@Override
	public void holdOpen(Breaker breaker, Duration wait) {
		breaker.retryAfter(wait);
	}

	@Override
	public void limitProbes(Breaker breaker, int max) {
		int most = breaker.config().halfOpenMaxProbes();
		if (max < 0 || max > most) {
			throw new IllegalArgumentException("a probe share must be in [0, " + most + "] but was " + max);
		}
		if (breaker.current() instanceof HalfOpenState halfOpen) {
			halfOpen.share(max);
		}
	}

}
