package dev.breaker.aspect;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static dev.breaker.aspect.ManualTime.breaker;
import static org.assertj.core.api.Assertions.assertThat;

class ReactorTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.quotes.timeout=1s", "breaker.instances.retried.retry.intervals=50ms");

	@Test
	void recordsAMonoWhenItCompletesNotWhenTheMethodReturns() {
		this.runner.run((context) -> {
			Prices prices = context.getBean(Prices.class);
			Mono<String> price = prices.price("sku-1");
			assertThat(prices.calls()).isZero();
			assertThat(price.block()).isEqualTo("live");
			assertThat(prices.calls()).isEqualTo(1);
			assertThat(breaker(context, "prices").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void runsTheMonoFallbackOnAFailure() {
		this.runner.run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Mono.error(new IOException("pricing down")));
			assertThat(prices.price("sku-1").block()).isEqualTo("cached sku-1 after IOException");
			assertThat(breaker(context, "prices").totals().calls(Outcome.FAILURE)).isEqualTo(1);
			assertThat(context.getBean(RecordingObserver.class).runs).containsExactly("prices:cachedPrice:true");
		});
	}

	@Test
	void runsTheMonoFallbackWhenTheBreakerRejects() {
		this.runner.run((context) -> {
			breaker(context, "prices").forceOpen();
			Prices prices = context.getBean(Prices.class);
			assertThat(prices.price("sku-1").block()).isEqualTo("cached sku-1 after BreakerOpenException");
			assertThat(prices.calls()).isZero();
		});
	}

	@Test
	void timesOutAMonoAndRecordsATimeout() {
		this.runner.run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Mono.never());
			CompletableFuture<String> result = prices.quote("sku-1").toFuture();
			assertThat(result).isNotDone();
			context.getBean(ManualDelays.class).runPending();
			assertThat(result).isCompletedWithValue("cached sku-1 after TimeoutException");
			assertThat(breaker(context, "quotes").totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
		});
	}

	@Test
	void retriesAMonoAfterAScheduledPause() {
		this.runner.run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Mono.error(new IOException("blip")));
			prices.answerWith(Mono.just("second try"));
			CompletableFuture<String> result = prices.retried("sku-1").toFuture();
			assertThat(result).isNotDone();
			context.getBean(ManualDelays.class).runPending();
			assertThat(result).isCompletedWithValue("second try");
			assertThat(breaker(context, "retried").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker(context, "retried").totals().calls(Outcome.FAILURE)).isZero();
		});
	}

	@Test
	void recordsAFluxOnceWhenItCompletes() {
		this.runner.run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Flux.just("a", "b", "c"));
			assertThat(prices.feed("news").collectList().block()).containsExactly("a", "b", "c");
			assertThat(breaker(context, "feed").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void runsTheFluxFallbackOnAFailure() {
		this.runner.run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Flux.error(new IOException("feed down")));
			assertThat(prices.feed("news").collectList().block()).containsExactly("cached news", "IOException");
			assertThat(breaker(context, "feed").totals().calls(Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void releasesThePermitOfACancelledSubscriptionAsIgnored() {
		this.runner.withPropertyValues("breaker.instances.feed.track-in-flight=true").run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Flux.never());
			Disposable subscription = prices.feed("news").subscribe();
			Breaker breaker = breaker(context, "feed");
			assertThat(breaker.snapshot().inFlight()).isEqualTo(1);
			subscription.dispose();
			assertThat(breaker.snapshot().inFlight()).isZero();
			assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
		});
	}

	@Test
	void aClassifierThatThrowsNeitherReachesTheCallerNorKeepsTheCallInFlight() {
		this.runner.withBean("throwingClassifier", OutcomeClassifier.class, () -> (result, error) -> {
			throw new IllegalArgumentException("bug in the application's classifier");
		}).withPropertyValues("breaker.instances.prices.track-in-flight=true").run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Mono.error(new IllegalStateException("quotes are down")));
			assertThat(prices.price("sku-1").block()).isEqualTo("cached sku-1 after IllegalStateException");
			assertThat(prices.price("sku-1").block()).isEqualTo("live");
			Breaker breaker = breaker(context, "prices");
			assertThat(breaker.snapshot().inFlight()).isZero();
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	/**
	 * A Mono's value is what a plain method returns: the classifier judges it, so a value
	 * it counts as a failure is retried (as a plain or CompletionStage call's would be),
	 * and when no retry is left it is recorded as a FAILURE and still delivered.
	 */
	@Test
	void classifiesAMonosValueLikeAReturnedValue() {
		this.runner
			.withBean("staleIsAFailure", OutcomeClassifier.class,
					() -> OutcomeClassifier.builder().failureResult("stale"::equals).build())
			.run((context) -> {
				Prices prices = context.getBean(Prices.class);
				prices.answerWith(Mono.just("stale"));
				prices.answerWith(Mono.just("fresh"));
				CompletableFuture<String> retried = prices.retried("sku-1").toFuture();
				context.getBean(ManualDelays.class).runPending();
				assertThat(retried).isCompletedWithValue("fresh");
				assertThat(prices.calls()).as("attempts").isEqualTo(2);
				assertThat(breaker(context, "retried").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
				prices.answerWith(Mono.just("stale"));
				assertThat(prices.price("sku-1").block()).isEqualTo("stale");
				assertThat(breaker(context, "prices").totals().calls(Outcome.FAILURE)).isEqualTo(1);
				assertThat(context.getBean(RecordingObserver.class).runs).isEmpty();
			});
	}

	/**
	 * A subscription cancelled while the call waits for its retry makes no further
	 * attempt, cancels the pause and is recorded as IGNORED at once.
	 */
	@Test
	void aSubscriptionCancelledDuringItsRetryPauseMakesNoFurtherAttempt() {
		this.runner.withPropertyValues("breaker.instances.retried.track-in-flight=true").run((context) -> {
			Prices prices = context.getBean(Prices.class);
			prices.answerWith(Mono.error(new IOException("blip")));
			Disposable subscription = prices.retried("sku-1").subscribe();
			ManualTime.assertCancellingThePauseEndsTheCall(context, "retried", subscription::dispose, prices::calls);
			assertThat(subscription.isDisposed()).isTrue();
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import({ ManualTime.class, RecordingObserver.class })
	static class Services {

		@Bean
		Prices prices() {
			return new Prices();
		}

	}

	static class Prices {

		private final Script answers = new Script();

		@CircuitGuarded(name = "prices", fallbackMethod = "cachedPrice")
		public Mono<String> price(String sku) throws Exception {
			return nextMono();
		}

		@CircuitGuarded(name = "quotes", fallbackMethod = "cachedPrice")
		public Mono<String> quote(String sku) throws Exception {
			return nextMono();
		}

		@CircuitGuarded(name = "retried")
		public Mono<String> retried(String sku) throws Exception {
			return nextMono();
		}

		@CircuitGuarded(name = "feed", fallbackMethod = "cachedFeed")
		@SuppressWarnings("unchecked")
		public Flux<String> feed(String topic) throws Exception {
			Object answer = this.answers.next();
			return (answer instanceof Flux<?> flux) ? (Flux<String>) flux : Flux.just((String) answer);
		}

		Mono<String> cachedPrice(String sku, Throwable cause) {
			return Mono.just("cached " + sku + " after " + cause.getClass().getSimpleName());
		}

		Flux<String> cachedFeed(String topic, Throwable cause) {
			return Flux.fromIterable(List.of("cached " + topic, cause.getClass().getSimpleName()));
		}

		/** The next answer: a publisher, or "live" once they run out. */
		@SuppressWarnings("unchecked")
		private Mono<String> nextMono() throws Exception {
			Object answer = this.answers.next();
			return (answer instanceof Mono<?> mono) ? (Mono<String>) mono : Mono.just((String) answer);
		}

		void answerWith(Object publisher) {
			this.answers.then(publisher);
		}

		int calls() {
			return this.answers.calls();
		}

	}

}
