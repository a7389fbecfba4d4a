package dev.breaker.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.BrokenSchedule;
import dev.breaker.aspect.BrokenSleep;
import dev.breaker.aspect.ClosedScheduler;
import dev.breaker.aspect.WarningsLogged;
import dev.breaker.core.Breaker;
import dev.breaker.core.ManualTicker;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A scheduler of the application's own that throws. For the blocking HTTP clients, whose
 * sleep throws: the request fails as when its pause is refused (an {@code IOException}
 * saying the pause failed, whose cause is what the sleep threw). For the WebClient, whose
 * {@code schedule} throws (it schedules its pauses; the blocking clients never schedule):
 * the exchange ends as if no retry were allowed, with the last answer. Either way the
 * retry goes back to the budget, and a failed pause is logged escaped and cut: the first,
 * then at most one a minute. A pause refused says so: after the context closed (a
 * scheduler closed with it) it is a debug line only, while the context is live (an
 * executor saturated) a warning at most once a minute per host's breaker, as for a
 * guarded method. Against a real server on loopback.
 */
class HttpThrowingSchedulerTests {

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aSleepThatThrowsIsLoggedOnceEscapedAndBoundedAndTheRetryGoesBack(ClientUnderTest client) {
		client.runner()
			.withBean(DelayScheduler.class, BrokenSleep::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.defaults.track-in-flight=true", "breaker.http.retry.intervals=100ms",
					"breaker.http.retry.jitter=0")
			.run((context) -> {
				this.server.failNext(10, 503, null);
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
					assertThat(thrown).hasRootCauseInstanceOf(IllegalStateException.class)
						.cause()
						.isInstanceOf(IOException.class);
					assertThat(warnings.messages()).as("warnings after one failed pause").hasSize(1);
					assertThat(warnings.messages().get(0))
						.startsWith("breaker '" + this.server.breakerName() + "': retry not made, the sleep of ")
						.contains("threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
						.doesNotContain("\n")
						.hasSizeLessThan(400);
				}
				Breaker breaker = this.server.breaker(context);
				assertThat(this.server.requests()).as("requests").isEqualTo(1);
				assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
				assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
				assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
			});
	}

	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aSleepThatThrowsOnEveryRequestIsWarnedOnceAndEachRequestSaysItsPauseFailed(ClientUnderTest client) {
		client.runner()
			.withBean(DelayScheduler.class, BrokenSleep::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.http.retry.intervals=100ms", "breaker.http.retry.jitter=0")
			.run((context) -> {
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					for (int i = 0; i < 5; i++) {
						this.server.failNext(1, 503, null);
						Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
						assertThat(thrown).cause()
							.isInstanceOf(IOException.class)
							.hasMessageContaining("its pause failed")
							.hasRootCauseInstanceOf(IllegalStateException.class);
					}
					assertThat(warnings.messages()).as("warnings after five failed pauses within a minute").hasSize(1);
				}
				assertThat(this.server.breaker(context).totals().retries()).as("retries granted").isEqualTo(5);
			});
	}

	/**
	 * A pause refused after the context closed (its scheduler closed with it refuses
	 * everything still in flight, the normal end of a shutdown): the request says so, and
	 * the log has a debug line, no warning. The client was built before the close.
	 */
	@ParameterizedTest
	@EnumSource
	void aPauseRefusedAfterTheContextClosedSaysSoAndIsADebugLineOnly(ClientUnderTest client) {
		client.runner()
			.withBean(DelayScheduler.class, ClosedScheduler::new)
			.withPropertyValues(REFUSED_PAUSES)
			.run((context) -> {
				Function<URI, String> get = getter(client, context);
				context.close();
				this.server.failNext(10, 503, null);
				try (WarningsLogged logged = WarningsLogged.withDebug(DelayScheduler.class.getName())) {
					Throwable thrown = catchThrowable(() -> get.apply(this.server.uri("/failing")));
					if (client == ClientUnderTest.WEB_CLIENT) {
						assertThat(thrown).as("the last answer").isInstanceOf(client.statusError(503));
					}
					else {
						assertThat(thrown).cause()
							.isInstanceOf(IOException.class)
							.hasMessageContaining("its pause was refused")
							.hasRootCauseInstanceOf(RejectedExecutionException.class);
					}
					assertThat(logged.messages()).as("warnings after a refused pause").isEmpty();
					assertThat(logged.debugs()).as("debug lines")
						.containsExactly("breaker '" + this.server.breakerName() + "': retry not made, the "
								+ operation(client) + " of " + ClosedScheduler.class.getName() + " refused it");
				}
			});
	}

	/**
	 * A pause refused while the context is live (an executor of the application's own
	 * with a bounded queue is saturated), as for a guarded method: warned, at most once a
	 * minute per host's breaker, with how many went unlogged since.
	 */
	@ParameterizedTest
	@EnumSource
	void aPauseRefusedWhileTheContextIsLiveIsWarnedAtMostOnceAMinutePerBreaker(ClientUnderTest client)
			throws IOException {
		client.runner()
			.withBean(DelayScheduler.class, ClosedScheduler::new)
			.withPropertyValues(REFUSED_PAUSES)
			.run((context) -> {
				ManualTicker ticker = context.getBean(ManualTicker.class);
				try (LoopbackServer other = LoopbackServer.start();
						WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					for (int i = 0; i < 8; i++) {
						refused(client, context, this.server);
					}
					assertThat(warnings.messages()).as("warnings, the ticker never moved").hasSize(1);
					refused(client, context, other);
					assertThat(warnings.messages()).as("warnings, after another host's refused pause").hasSize(2);
					ticker.advance(Duration.ofSeconds(59));
					refused(client, context, this.server);
					assertThat(warnings.messages()).as("warnings, 59 s later").hasSize(2);
					ticker.advance(Duration.ofSeconds(1));
					refused(client, context, this.server);
					assertThat(warnings.messages()).as("warnings, a minute later").hasSize(3);
					String live = "': retry not made, the " + operation(client) + " of "
							+ ClosedScheduler.class.getName() + " refused it while its context is live (saturated?): "
							+ "java.util.concurrent.RejectedExecutionException: scheduler closed";
					assertThat(warnings.messages()).containsExactly("breaker '" + this.server.breakerName() + live,
							"breaker '" + other.breakerName() + live,
							"breaker '" + this.server.breakerName() + live + " (and 8 more since the last warning)");
				}
			});
	}

	/** Retried once after 100 ms, the breakers never tripping. */
	private static final String[] REFUSED_PAUSES = { "breaker.defaults.consecutive-failures=0",
			"breaker.defaults.failure-rate-threshold=0", "breaker.http.retry.intervals=100ms",
			"breaker.http.retry.jitter=0" };

	/** One request to {@code host} whose retry's pause the scheduler refuses. */
	private static void refused(ClientUnderTest client, ApplicationContext context, LoopbackServer host) {
		host.failNext(1, 503, null);
		assertThat(catchThrowable(() -> client.get(context, host.uri("/failing")))).as("the request's end").isNotNull();
	}

	/** How the client waits a pause: the blocking ones sleep, the WebClient schedules. */
	private static String operation(ClientUnderTest client) {
		return (client == ClientUnderTest.WEB_CLIENT) ? "schedule" : "sleep";
	}

	/** GETs with a client built now from the context's builder. */
	private static Function<URI, String> getter(ClientUnderTest client, ApplicationContext context) {
		return switch (client) {
			case REST_CLIENT -> {
				RestClient built = HttpClients.restClient(context);
				yield (uri) -> built.get().uri(uri).retrieve().body(String.class);
			}
			case REST_TEMPLATE -> {
				RestTemplate built = HttpClients.restTemplate(context);
				yield (uri) -> built.getForObject(uri, String.class);
			}
			case WEB_CLIENT -> {
				WebClient built = HttpClients.webClient(context);
				yield (uri) -> built.get().uri(uri).retrieve().bodyToMono(String.class).block(Duration.ofSeconds(10));
			}
		};
	}

	@Test
	void aPauseThatFailsToBeScheduledEndsTheWebClientExchangeWithTheLastAnswerAndIsLoggedOnce() {
		ClientUnderTest.WEB_CLIENT.runner()
			.withBean(DelayScheduler.class, BrokenSchedule::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.defaults.track-in-flight=true", "breaker.http.retry.intervals=100ms",
					"breaker.http.retry.jitter=0")
			.run((context) -> {
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					for (int i = 0; i < 3; i++) {
						this.server.failNext(1, 503, null);
						Throwable thrown = catchThrowable(
								() -> ClientUnderTest.WEB_CLIENT.get(context, this.server.uri("/failing")));
						assertThat(thrown).as("the last answer")
							.isInstanceOf(ClientUnderTest.WEB_CLIENT.statusError(503));
					}
					assertThat(warnings.messages()).as("warnings after three failed pauses within a minute").hasSize(1);
					assertThat(warnings.messages().get(0))
						.startsWith("breaker '" + this.server.breakerName() + "': retry not made, the schedule of "
								+ BrokenSchedule.class.getName()
								+ " threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
						.doesNotContain("\n")
						.hasSizeLessThan(400);
				}
				Breaker breaker = this.server.breaker(context);
				assertThat(this.server.requests()).as("requests").isEqualTo(3);
				assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(3);
				assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
				assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
			});
	}

}
