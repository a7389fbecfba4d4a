package dev.breaker.benchmarks;

/**
 * The remote call every benchmark guards: the same few instructions for every library, so
 * what differs between two benchmarks is the breaker around it. Its reply goes to a
 * {@code Blackhole}.
 */
public final class Dependency {

	/** Not final: the JIT must read it on every call rather than fold a constant. */
	private String reply = "reply";

	/** Answers a request. */
	public String call() {
		return reply;
	}

}
