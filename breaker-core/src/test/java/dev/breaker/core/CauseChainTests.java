package dev.breaker.core;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class CauseChainTests {

	/** Generous: a walk that ends takes microseconds; one that does not never returns. */
	private static final Duration ENDS_WITHIN = Duration.ofSeconds(30);

	@Test
	void aCyclicChainEndsForEveryWalk() {
		Exception a = new Exception("a");
		Exception b = new Exception("b", a);
		a.initCause(b);
		assertTimeoutPreemptively(ENDS_WITHIN, () -> {
			assertThat(CauseChain.<String>first(a, t -> null)).isNull();
			assertThat(CauseChain.contains(a, new Class<?>[] { IOException.class })).isFalse();
		});
	}

	@Test
	void aCyclicChainOfAsyncWrappersUnwrapsAndEnds() {
		Wrapper a = new Wrapper();
		Wrapper b = new Wrapper();
		a.initCause(b);
		b.initCause(a);
		assertTimeoutPreemptively(ENDS_WITHIN, () -> assertThat(CauseChain.unwrapAsync(a)).isIn(a, b));
	}

	@Test
	void aVeryDeepChainIsLookedAtThirtyTwoDeepAndNoFurther() {
		Throwable deep = new TimeoutException();
		for (int i = 0; i < 100_000; i++) {
			deep = new Link(deep);
		}
		Throwable chain = deep;
		int[] looked = new int[1];
		assertTimeoutPreemptively(ENDS_WITHIN, () -> assertThat(CauseChain.<String>first(chain, t -> {
			looked[0]++;
			return null;
		})).isNull());
		assertThat(looked[0]).isEqualTo(CauseChain.MAX_DEPTH).isEqualTo(32);
		assertThat(CauseChain.contains(wrapped(new TimeoutException(), 31), new Class<?>[] { TimeoutException.class }))
			.isTrue();
		assertThat(CauseChain.contains(wrapped(new TimeoutException(), 32), new Class<?>[] { TimeoutException.class }))
			.isFalse();
	}

	@Test
	void unwrapsNestedCompletionAndExecutionExceptionsToWhatTheyWrap() {
		IOException cause = new IOException("reset");
		Throwable wrapped = new CompletionException(new ExecutionException(new CompletionException(cause)));
		assertThat(CauseChain.unwrapAsync(wrapped)).isSameAs(cause);
		CompletionException empty = new CompletionException("no cause", null);
		assertThat(CauseChain.unwrapAsync(empty)).isSameAs(empty);
	}

	@Test
	void theFirstAnswerAlongTheChainWins() {
		Throwable chain = new IllegalStateException(new IOException(new TimeoutException()));
		assertThat(CauseChain.<String>first(chain, t -> (t instanceof IOException) ? "io" : null)).isEqualTo("io");
		assertThat(CauseChain.<String>first(null, t -> "never")).isNull();
	}

	private static Throwable wrapped(Throwable cause, int wrappers) {
		Throwable t = cause;
		for (int i = 0; i < wrappers; i++) {
			t = new RuntimeException("wrapper " + i, t);
		}
		return t;
	}

	/** A wrapper without a stack trace, so a chain of 100,000 takes little memory. */
	private static final class Link extends RuntimeException {

		Link(Throwable cause) {
			super(null, cause, false, false);
		}

	}

	/**
	 * A CompletionException whose cause is set after construction, so a chain of them can
	 * be a cycle.
	 */
	private static final class Wrapper extends CompletionException {

		Wrapper() {
			super();
		}

	}

}
