package dev.breaker.http;

import java.time.Duration;

import dev.breaker.core.Outcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * An exception whose causes form a cycle (a client library that wraps and re-links them)
 * is classified, and the request fails with it, instead of the calling thread spinning
 * forever.
 */
class CyclicCauseChainTests {

	@Test
	void anExceptionWithACyclicCauseChainIsClassifiedAndTheClassifierReturns() {
		IllegalStateException a = new IllegalStateException("a");
		IllegalArgumentException b = new IllegalArgumentException("b", a);
		a.initCause(b);
		Outcome outcome = assertTimeoutPreemptively(Duration.ofSeconds(30),
				() -> HttpClassifier.defaults().classify(a));
		assertThat(outcome).isEqualTo(Outcome.IGNORED);
	}

}
