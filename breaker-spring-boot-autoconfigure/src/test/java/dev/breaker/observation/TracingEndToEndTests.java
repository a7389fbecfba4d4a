package dev.breaker.observation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.List;

import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: a real Spring MVC application traced through Micrometer's OpenTelemetry
 * bridge into an in-memory span exporter. The HTTP request's span carries the breaker's
 * attributes and events; the breaker adds no span of its own; and the request metrics of
 * guarded and unguarded endpoints are both still in the Prometheus scrape.
 */
@SpringBootTest(classes = TracingEndToEndTests.TracedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=prometheus",
				"breaker.defaults.consecutive-failures=2" })
class TracingEndToEndTests {

	static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

	@Autowired
	private BreakerRegistry registry;

	@LocalServerPort
	private int port;

	private final HttpClient client = HttpClient.newHttpClient();

	@BeforeEach
	void reset() {
		this.registry.breaker("payments").reset();
		SPANS.reset();
	}

	private String get(String path) {
		try {
			return this.client
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
						BodyHandlers.ofString())
				.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void theRequestsSpanSaysWhichBreakerGuardedItsCallAndAddsNoSpan() {
		assertThat(get("/charge")).isEqualTo("charged");

		List<SpanData> spans = finished(1);
		SpanData request = spans.get(0);
		assertThat(request.getAttributes().get(AttributeKey.stringKey("circuitbreaker.name"))).isEqualTo("payments");
		assertThat(request.getAttributes().get(AttributeKey.stringKey("circuitbreaker.state"))).isEqualTo("CLOSED");
		assertThat(request.getEvents()).isEmpty();
	}

	@Test
	void aRejectedCallAndItsFallbackAreEventsOfTheRequestsSpan() {
		this.registry.breaker("payments").forceOpen();
		SPANS.reset();

		assertThat(get("/charge")).isEqualTo("queued");

		SpanData request = finished(1).get(0);
		assertThat(request.getEvents()).extracting(EventData::getName)
			.containsExactly("breaker.rejected payments", "breaker.fallback payments queueForLater");
		assertThat(request.getAttributes().get(AttributeKey.stringKey("circuitbreaker.state")))
			.isEqualTo("FORCED_OPEN");
	}

	@Test
	void theTripIsAnEventOfTheSpanOfTheRequestThatCausedIt() {
		get("/charge?fail=true");
		// the first request's span ends just after its response: wait, then forget it
		finished(1);
		SPANS.reset();

		assertThat(get("/charge?fail=true")).isEqualTo("queued");

		assertThat(finished(1).get(0).getEvents()).extracting(EventData::getName)
			.contains("breaker.transition payments CLOSED -> OPEN", "breaker.fallback payments queueForLater");
	}

	@Test
	void guardedAndUnguardedRequestsAreBothStillInTheRequestMetrics() {
		get("/charge");
		get("/plain");

		String scrape = get("/actuator/prometheus");

		assertThat(scrape).containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/charge\"[^}]*} 1");
		assertThat(scrape).containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/plain\"[^}]*} 1");
		assertThat(scrape).doesNotContain("circuitbreaker_name");
	}

	/**
	 * The spans finished so far, once there are {@code count} of them (a server span ends
	 * just after its response).
	 */
	private static List<SpanData> finished(int count) {
		long deadline = System.nanoTime() + 10_000_000_000L;
		List<SpanData> spans = SPANS.getFinishedSpanItems();
		while (spans.size() < count && System.nanoTime() < deadline) {
			Thread.onSpinWait();
			spans = SPANS.getFinishedSpanItems();
		}
		assertThat(spans).hasSize(count);
		return spans;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TracedApplication {

		@Bean
		ManualTicker breakerTicker() {
			return new ManualTicker();
		}

		@Bean
		DefaultTracingObservationHandler openTelemetryTracing() {
			SdkTracerProvider provider = SdkTracerProvider.builder()
				.addSpanProcessor(SimpleSpanProcessor.create(SPANS))
				.build();
			OtelCurrentTraceContext context = new OtelCurrentTraceContext();
			OtelTracer tracer = new OtelTracer(provider.get("breaker-test"), context, (event) -> {
			}, new OtelBaggageManager(context, List.of(), List.of()));
			return new DefaultTracingObservationHandler(tracer);
		}

		@Bean
		PaymentsController paymentsController() {
			return new PaymentsController();
		}

		@Bean
		Gateway gateway() {
			return new Gateway();
		}

	}

	@RestController
	static class PaymentsController {

		@Autowired
		private Gateway gateway;

		@GetMapping("/charge")
		String charge(@org.springframework.web.bind.annotation.RequestParam(defaultValue = "false") boolean fail) {
			return this.gateway.charge(fail);
		}

		@GetMapping("/plain")
		String plain() {
			return "plain";
		}

	}

	public static class Gateway {

		@CircuitGuarded(name = "payments", fallbackMethod = "queueForLater")
		public String charge(boolean fail) {
			if (fail) {
				throw new IllegalStateException("gateway down");
			}
			return "charged";
		}

		public String queueForLater(boolean fail) {
			return "queued";
		}

	}

}
