package dev.breaker.autoconfigure.actuate;

import dev.breaker.annotation.CircuitGuarded;

/**
 * A guarded dependency that always fails, with a cache that fails too and a default that
 * answers.
 */
public class QuoteService {

	@CircuitGuarded(name = "quotes", fallbackMethod = { "cachedQuote", "defaultQuote" })
	public String quote(String symbol) {
		throw new IllegalStateException("quote feed down");
	}

	public String cachedQuote(String symbol) {
		throw new IllegalStateException("cache empty for " + symbol);
	}

	public String defaultQuote(String symbol) {
		return symbol + ": no quote";
	}

}
