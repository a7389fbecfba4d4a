package dev.breaker.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.observation.CallObserver;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interceptor's and the filter's shorter constructors, which applications that
 * replace the beans call: each one still wires what it is given.
 */
class HttpBreakerConstructorsTests {

	private static final URI ORDERS = URI.create("https://api.acme.com/orders");

	private final BreakerRegistry registry = BreakerRegistry.builder().build();

	private final HttpRetryPolicy once = new HttpRetryPolicy(List.of(Duration.ofSeconds(1)), 0, Set.of(Outcome.FAILURE),
			Set.of(), false);

	private final List<Duration> pauses = new ArrayList<>();

	private final DelayScheduler recording = new DelayScheduler() {
		@Override
		public void sleep(Duration pause) {
			HttpBreakerConstructorsTests.this.pauses.add(pause);
		}

		@Override
		public Future<?> schedule(Duration delay, Runnable task) {
			HttpBreakerConstructorsTests.this.pauses.add(delay);
			task.run();
			return CompletableFuture.completedFuture(null);
		}
	};

	private final List<String> told = new ArrayList<>();

	private final CallObserver observer = new CallObserver() {
		@Override
		public void onCall(String name, Breaker breaker) {
			HttpBreakerConstructorsTests.this.told.add(name);
		}
	};

	private final AtomicInteger sent = new AtomicInteger();

	@Test
	void anInterceptorGivenItsDelaysPausesThroughThem() throws IOException {
		HttpBreakerInterceptor interceptor = new HttpBreakerInterceptor(retryingOnce(), this.recording);
		interceptor.intercept(new MockClientHttpRequest(HttpMethod.GET, ORDERS), new byte[0], (request, body) -> {
			this.sent.incrementAndGet();
			return new MockClientHttpResponse(new byte[0], 503);
		}).close();
		assertThat(this.sent).hasValue(2);
		assertThat(this.pauses).containsExactly(Duration.ofSeconds(1));
	}

	@Test
	void anInterceptorGivenItsObserverTellsItOfTheCall() throws IOException {
		HttpBreakerInterceptor interceptor = new HttpBreakerInterceptor(plain(), this.observer);
		interceptor
			.intercept(new MockClientHttpRequest(HttpMethod.GET, ORDERS), new byte[0],
					(request, body) -> new MockClientHttpResponse(new byte[0], 200))
			.close();
		assertThat(this.told).hasSize(1);
	}

	@Test
	void aFilterGivenItsDelaysPausesThroughThem() {
		HttpBreakerFilter filter = new HttpBreakerFilter(retryingOnce(), this.recording);
		filter.filter(ClientRequest.create(HttpMethod.GET, ORDERS).build(), answering(HttpStatus.SERVICE_UNAVAILABLE))
			.block();
		assertThat(this.sent).hasValue(2);
		assertThat(this.pauses).containsExactly(Duration.ofSeconds(1));
	}

	@Test
	void aFilterGivenItsObserverTellsItOfTheCall() {
		HttpBreakerFilter filter = new HttpBreakerFilter(plain(), this.observer);
		filter.filter(ClientRequest.create(HttpMethod.GET, ORDERS).build(), answering(HttpStatus.OK)).block();
		assertThat(this.told).hasSize(1);
	}

	private ExchangeFunction answering(HttpStatus status) {
		return (request) -> Mono.fromSupplier(() -> {
			this.sent.incrementAndGet();
			return ClientResponse.create(status).build();
		});
	}

	private HostBreakers plain() {
		return new HostBreakers(this.registry, HttpClassifier.defaults(), Map.of());
	}

	private HostBreakers retryingOnce() {
		return new HostBreakers(this.registry, HttpClassifier.defaults(), Map.of(), this.once, Map.of());
	}

}
