package dev.breaker.aspect;

import dev.breaker.annotation.CircuitGuarded;

/**
 * A quote service behind an interface, for the tests of interface (JDK) proxies: the
 * annotation sits on the implementation, {@link Remote}.
 */
interface QuoteService {

	String quote(String symbol);

	/** Guarded by breaker "quotes", with a fallback that takes no cause. */
	class Remote implements QuoteService {

		@Override
		@CircuitGuarded(name = "quotes", fallbackMethod = "cached")
		public String quote(String symbol) {
			return "live " + symbol;
		}

		String cached(String symbol) {
			return "cached " + symbol;
		}

	}

}
