package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * A classifier that throws on every call is told once, then at most once a minute per
 * breaker with the count of calls not logged: a broken classifier at thousands of calls a
 * second must not turn into thousands of stack traces a second in the service's log.
 */
class ClassifierWarningsTests {

	private final Fixture fixture = new Fixture();

	private final Breaker breaker = fixture.breaker(c -> c.classifier((result, error) -> {
		throw new IllegalStateException("classifier bug");
	}));

	@Test
	void aClassifierThatThrowsOnEveryCallIsLoggedOnceAMinuteWithTheCallsNotLogged() throws Exception {
		try (Logs logs = Logs.of(Breaker.class)) {
			for (int i = 0; i < 1_000; i++) {
				breaker.call(() -> "ok");
			}
			assertThat(logs.warnings()).containsExactly(
					"the classifier of breaker 'payments' threw; the default classifier decides this call");

			fixture.advance(Duration.ofSeconds(59));
			breaker.call(() -> "ok");
			assertThat(logs.warnings()).hasSize(1);

			fixture.advance(Duration.ofSeconds(1));
			breaker.call(() -> "ok");
			assertThat(logs.warnings()).hasSize(2)
				.last()
				.isEqualTo("the classifier of breaker 'payments' threw; the default classifier decides this call "
						+ "(and 1000 more calls since the last warning)");
		}
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1_002);
	}

	@Test
	void eachBreakerIsToldOfOnItsOwn() throws Exception {
		Breaker other = Breaker.of("inventory", breaker.config());
		try (Logs logs = Logs.of(Breaker.class)) {
			breaker.call(() -> "ok");
			breaker.call(() -> "ok");
			other.call(() -> "ok");
			assertThat(logs.warnings()).containsExactly(
					"the classifier of breaker 'payments' threw; the default classifier decides this call",
					"the classifier of breaker 'inventory' threw; the default classifier decides this call");
		}
	}

	@Test
	void manyThreadsFailingAtOnceLogOneWarningAndLoseNoCount() throws Exception {
		int threads = 8;
		int calls = 2_000;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try (Logs logs = Logs.of(Breaker.class)) {
			for (int t = 0; t < threads; t++) {
				pool.execute(() -> {
					try {
						start.await();
						for (int i = 0; i < calls; i++) {
							breaker.call(() -> "ok");
						}
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				});
			}
			start.countDown();
			pool.shutdown();
			assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
			assertThat(logs.warnings()).hasSize(1);

			fixture.advance(Duration.ofMinutes(1));
			breaker.call(() -> "ok");
			assertThat(logs.warnings()).hasSize(2);
			assertThat(logs.warnings().size() + logs.warnings().stream().mapToLong(ClassifierWarningsTests::more).sum())
				.as("calls told of, one by one or counted")
				.isEqualTo(threads * calls + 1);
		}
	}

	@Test
	void aThousandTenantsOfOneGroupShareOneWarningAMinute() throws Exception {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(breaker.config())
			.children("recommendations", BreakerRegistry.Children.DEFAULT)
			.build();
		try (Logs logs = Logs.of(Breaker.class)) {
			for (int i = 0; i < 1_000; i++) {
				registry.breaker("recommendations", "user-" + i).call(() -> "ok");
			}
			assertThat(logs.warnings()).containsExactly("the classifier of breaker 'recommendations:user-0' threw; "
					+ "the default classifier decides this call");
		}
	}

	@Test
	void aWarningNotLoggedAllocatesNothing() {
		Breaker answersNull = fixture.breaker(c -> c.classifier((result, error) -> null));
		try (Logs logs = Logs.of(Breaker.class)) {
			answersNull.classify("ok", null);
			long bytes = Allocations.steady(() -> {
				for (int i = 0; i < 100_000; i++) {
					answersNull.classify("ok", null);
				}
			});
			assertThat(bytes).as("bytes for 100,000 calls whose classifier answered null").isZero();
			assertThat(logs.warnings()).containsExactly("the classifier of breaker 'payments' returned null");
		}
	}

	/** The calls a warning says went unlogged before it. */
	private static long more(String warning) {
		Matcher counted = Pattern.compile("\\(and (\\d+) more calls since the last warning\\)$").matcher(warning);
		return counted.find() ? Long.parseLong(counted.group(1)) : 0;
	}

}
