package dev.breaker.http;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A RestClient answer to be retried whose close throws (a response wrapped by an
 * interceptor behind the breaker's, or a request factory of the application's own): the
 * retry is not made and goes back to the budget, and the caller gets the close's
 * exception. Against a real server on loopback.
 */
class RetriedAnswerThatFailsToCloseTests {

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	/** Its time stands still: a grant kept is not hidden by the window sliding past. */
	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(new ManualTicker()).trackInFlight(true).build())
		.build();

	@Test
	void aRetriedAnswerWhoseCloseThrowsGivesTheRetryBackAndTheCallerTheCloseError() {
		HttpRetryPolicy once = new HttpRetryPolicy(List.of(Duration.ofMillis(100)), 0, Set.of(Outcome.FAILURE),
				Set.of(), false);
		HostBreakers breakers = new HostBreakers(this.registry, HttpClassifier.defaults(), Map.of(), once, Map.of());
		ClientHttpRequestInterceptor closeThrows = (request, body,
				execution) -> new ResponseDecorator(execution.execute(request, body)) {
					@Override
					public void close() {
						super.close();
						throw new IllegalStateException("close failed");
					}
				};
		RestClient client = RestClient.builder()
			.requestFactory(new JdkClientHttpRequestFactory())
			.requestInterceptor(new HttpBreakerInterceptor(breakers, new RecordingDelays()))
			.requestInterceptor(closeThrows)
			.build();
		this.server.failNext(10, 503, null);

		Throwable thrown = catchThrowable(
				() -> client.get().uri(this.server.uri("/failing")).retrieve().toBodilessEntity());

		assertThat(thrown).as("what the caller got").hasMessageContaining("close failed");
		Breaker breaker = this.registry.find(this.server.breakerName()).orElseThrow();
		assertThat(this.server.requests()).as("requests").isEqualTo(1);
		assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
	}

}
