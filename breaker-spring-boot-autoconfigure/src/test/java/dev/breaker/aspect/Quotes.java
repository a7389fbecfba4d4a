package dev.breaker.aspect;

import dev.breaker.annotation.CircuitGuarded;

/**
 * A guarded quote service for the aspect tests, on breaker "quotes": each call answers
 * what its {@link Script} says next ("live" once it runs out), and a counted failure or a
 * rejection falls back to a cached quote naming the cause.
 */
class Quotes {

	private final Script script = new Script();

	Script script() {
		return this.script;
	}

	@CircuitGuarded(name = "quotes", fallbackMethod = "cached")
	public String quote(String symbol) throws Exception {
		return (String) this.script.next();
	}

	String cached(String symbol, Throwable cause) {
		return "cached " + symbol + " (" + cause.getClass().getSimpleName() + ")";
	}

}
