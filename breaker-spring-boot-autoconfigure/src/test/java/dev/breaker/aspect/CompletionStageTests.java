package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static dev.breaker.aspect.ManualTime.breaker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class CompletionStageTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.search.ignore-exceptions=java.lang.IllegalArgumentException",
				"breaker.instances.search.track-in-flight=true", "breaker.instances.slow.timeout=2s",
				"breaker.instances.bare.timeout=2s", "breaker.instances.retried.retry.intervals=100ms,200ms");

	@Test
	void recordsTheOutcomeWhenTheStageCompletes() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			CompletableFuture<String> pending = search.answerWith(new CompletableFuture<>());
			CompletableFuture<String> result = search.search("boots");
			Breaker breaker = breaker(context, "search");
			assertThat(result).isNotDone();
			assertThat(breaker.snapshot().inFlight()).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isZero();
			pending.complete("12 boots");
			assertThat(result).isCompletedWithValue("12 boots");
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker.snapshot().inFlight()).isZero();
		});
	}

	@Test
	void aClassifierThatThrowsNeitherReachesTheCallerNorKeepsTheCallInFlight() {
		this.runner.withBean("throwingClassifier", OutcomeClassifier.class, () -> (result, error) -> {
			throw new IllegalArgumentException("bug in the application's classifier");
		}).withPropertyValues("breaker.instances.bare.track-in-flight=true").run((context) -> {
			Search search = context.getBean(Search.class);
			IllegalStateException down = new IllegalStateException("index offline");
			search.answerWith(CompletableFuture.failedFuture(down));
			CompletableFuture<String> result = search.bare("boots");
			assertThat(result).as("the caller's future").isCompletedExceptionally();
			assertThat(result).as("what the caller got")
				.failsWithin(Duration.ZERO)
				.withThrowableThat()
				.havingCause()
				.isSameAs(down);
			assertThat(search.bare("boots")).isCompletedWithValue("live");
			Breaker breaker = breaker(context, "bare");
			assertThat(breaker.snapshot().inFlight()).isZero();
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void runsTheFallbackWhenTheStageFails() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			search.answerWith(CompletableFuture.failedFuture(new IOException("index offline")));
			assertThat(search.search("boots")).isCompletedWithValue("cached boots after IOException");
			assertThat(breaker(context, "search").totals().calls(Outcome.FAILURE)).isEqualTo(1);
			assertThat(context.getBean(RecordingObserver.class).runs).containsExactly("search:cached:true");
		});
	}

	@Test
	void treatsAMethodThatThrowsLikeAFailedStage() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			search.throwNext(new IOException("no connection"));
			assertThat(search.search("boots")).isCompletedWithValue("cached boots after IOException");
		});
	}

	@Test
	void runsTheFallbackWhenTheBreakerRejects() {
		this.runner.run((context) -> {
			breaker(context, "search").forceOpen();
			Search search = context.getBean(Search.class);
			assertThat(search.search("boots")).isCompletedWithValue("cached boots after BreakerOpenException");
			assertThat(search.calls()).isZero();
		});
	}

	@Test
	void completesWithAnIgnoredExceptionUnchanged() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			IllegalArgumentException invalid = new IllegalArgumentException("empty query");
			search.answerWith(CompletableFuture.failedFuture(invalid));
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> search.search("").get())
				.withCause(invalid);
			assertThat(breaker(context, "search").totals().calls(Outcome.IGNORED)).isEqualTo(1);
		});
	}

	@Test
	void timesOutAStageThatTakesTooLongAndRunsTheFallback() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			CompletableFuture<String> pending = search.answerWith(new CompletableFuture<>());
			CompletableFuture<String> result = search.slow("boots").toCompletableFuture();
			ManualDelays delays = context.getBean(ManualDelays.class);
			assertThat(delays.scheduled).containsExactly(Duration.ofSeconds(2));
			assertThat(result).isNotDone();
			delays.runPending();
			assertThat(result).isCompletedWithValue("cached boots after TimeoutException");
			assertThat(breaker(context, "slow").totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
			assertThat(pending).isCancelled();
		});
	}

	@Test
	void completesWithATimeoutExceptionWhenThereIsNoFallback() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			search.answerWith(new CompletableFuture<>());
			CompletableFuture<String> result = search.bare("boots");
			context.getBean(ManualDelays.class).runPending();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(result::get)
				.withCauseInstanceOf(TimeoutException.class)
				.withMessageContaining("breaker 'bare': did not complete within PT2S");
		});
	}

	@Test
	void cancelsTheTimeoutWhenTheStageCompletesInTime() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			CompletableFuture<String> pending = search.answerWith(new CompletableFuture<>());
			CompletableFuture<String> result = search.bare("boots");
			pending.complete("in time");
			assertThat(result).isCompletedWithValue("in time");
			assertThat(context.getBean(ManualDelays.class).waiting()).isZero();
		});
	}

	@Test
	void cancelsTheMethodsStageWhenTheCallerCancelsAndRecordsNoFailure() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			CompletableFuture<String> pending = search.answerWith(new CompletableFuture<>());
			CompletableFuture<String> result = search.search("boots");
			result.cancel(true);
			assertThat(pending).isCancelled();
			Breaker breaker = breaker(context, "search");
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isZero();
			assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
			assertThat(breaker.snapshot().inFlight()).isZero();
			assertThat(context.getBean(RecordingObserver.class).runs).isEmpty();
		});
	}

	@Test
	void retriesAFailedStageAfterAScheduledPause() {
		this.runner.run((context) -> {
			Search search = context.getBean(Search.class);
			search.answerWith(CompletableFuture.failedFuture(new IOException("1")));
			search.answerWith(CompletableFuture.failedFuture(new IOException("2")));
			search.answerWith(CompletableFuture.completedFuture("third time lucky"));
			CompletableFuture<String> result = search.retried("boots");
			assertThat(result).isNotDone();
			context.getBean(ManualDelays.class).runPending();
			assertThat(result).isCompletedWithValue("third time lucky");
			assertThat(search.calls()).isEqualTo(3);
			assertThat(context.getBean(ManualDelays.class).sleeps).isEmpty();
			assertThat(context.getBean(ManualDelays.class).scheduled).hasSize(2);
			Breaker breaker = breaker(context, "retried");
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isZero();
		});
	}

	/**
	 * A caller that cancels while the call waits for its retry has given up: no further
	 * attempt reaches the dependency, the pause is cancelled and the call is recorded as
	 * IGNORED at once, as for a cancelled Mono (and as an interrupted plain call stops).
	 */
	@Test
	void aCallCancelledDuringItsRetryPauseMakesNoFurtherAttempt() {
		this.runner.withPropertyValues("breaker.instances.retried.track-in-flight=true").run((context) -> {
			Search search = context.getBean(Search.class);
			search.answerWith(CompletableFuture.failedFuture(new IOException("blip")));
			CompletableFuture<String> result = search.retried("boots");
			ManualTime.assertCancellingThePauseEndsTheCall(context, "retried", () -> result.cancel(true),
					search::calls);
			assertThat(result).isCancelled();
		});
	}

	@Test
	void aCallWhoseCallerStopsWaitingDuringItsRetryPauseMakesNoFurtherAttempt() {
		this.runner.withPropertyValues("breaker.instances.retried.track-in-flight=true").run((context) -> {
			Search search = context.getBean(Search.class);
			search.answerWith(CompletableFuture.failedFuture(new IOException("blip")));
			CompletableFuture<String> result = search.retried("boots");
			// what the caller's own orTimeout does to the future it was handed
			ManualTime.assertCancellingThePauseEndsTheCall(context, "retried",
					() -> result.completeExceptionally(new TimeoutException("the caller's own timeout")),
					search::calls);
			assertThat(result).isCompletedExceptionally();
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import({ ManualTime.class, RecordingObserver.class })
	static class Services {

		@Bean
		Search search() {
			return new Search();
		}

	}

	static class Search {

		private final Script answers = new Script();

		@CircuitGuarded(name = "search", fallbackMethod = "cached")
		public CompletableFuture<String> search(String query) throws Exception {
			return next();
		}

		@CircuitGuarded(name = "slow", fallbackMethod = "cached")
		public CompletionStage<String> slow(String query) throws Exception {
			return next();
		}

		@CircuitGuarded(name = "bare")
		public CompletableFuture<String> bare(String query) throws Exception {
			return next();
		}

		@CircuitGuarded(name = "retried")
		public CompletableFuture<String> retried(String query) throws Exception {
			return next();
		}

		CompletableFuture<String> cached(String query, Throwable cause) {
			return CompletableFuture.completedFuture("cached " + query + " after " + cause.getClass().getSimpleName());
		}

		/** The next answer: a future, a thrown exception, or "live" once they run out. */
		@SuppressWarnings("unchecked")
		private CompletableFuture<String> next() throws Exception {
			Object answer = this.answers.next();
			return (answer instanceof CompletableFuture<?> future) ? (CompletableFuture<String>) future
					: CompletableFuture.completedFuture((String) answer);
		}

		CompletableFuture<String> answerWith(CompletableFuture<String> answer) {
			this.answers.then(answer);
			return answer;
		}

		void throwNext(Exception ex) {
			this.answers.then(ex);
		}

		int calls() {
			return this.answers.calls();
		}

	}

}
