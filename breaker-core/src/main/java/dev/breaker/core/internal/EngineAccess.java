package dev.breaker.core.internal;

import dev.breaker.core.Breaker;
import java.time.Duration;

/**
 * How {@code dev.breaker.core.spi} reaches the engine's hooks that are not public on
 * {@link Breaker}; not part of the public API.
 */
public final class EngineAccess {

	/*
	 * The JDK's "shared secrets" pattern: dev.breaker.core installs the one
	 * implementation from Breaker's static initialiser, so any code that holds a Breaker
	 * finds it installed (the class was initialised to make that breaker). Installed
	 * once, in a final-field-like volatile that is never written again.
	 */

	/**
	 * The hooks a shared store drives; implemented in {@code dev.breaker.core} on the
	 * package-private methods.
	 */
	public interface Hooks {

		void openFromPeer(Breaker breaker, Duration remaining, String reason);

		void closeFromPeer(Breaker breaker, String reason);

		void closeFromPeer(Breaker breaker, String reason, long generation);

		void tripNow(Breaker breaker, String reason);

		void holdOpen(Breaker breaker, Duration wait);

		void limitProbes(Breaker breaker, int max);

	}

	private static volatile Hooks hooks;

	private EngineAccess() {
	}

	/** Called once, by {@link Breaker}'s static initialiser. */
	public static void install(Hooks installed) {
		if (hooks != null) {
			throw new IllegalStateException("the engine's hooks are installed already");
		}
		hooks = installed;
	}

	/**
	 * The installed hooks; {@code breaker} is only there to make sure {@link Breaker} is
	 * initialised.
	 */
	public static Hooks hooks(Breaker breaker) {
		if (breaker == null) {
			throw new NullPointerException("breaker");
		}
		return hooks;
	}

}
