package dev.breaker.autoconfigure.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.ManualTicker;
import dev.breaker.http.HostBreakers;
import dev.breaker.http.HttpBreakerFilter;
import dev.breaker.http.HttpBreakerInterceptor;
import dev.breaker.http.HttpClassifier;
import dev.breaker.http.LoopbackServer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static dev.breaker.http.HttpClients.restClientRunner;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class HttpBreakerAutoConfigurationTests {

	private final ApplicationContextRunner runner = restClientRunner("jdk");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@Test
	void isRegisteredAsAnAutoConfiguration() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
			.contains(HttpBreakerAutoConfiguration.class.getName());
	}

	@Test
	void guardsRestClientRestTemplateAndWebClientByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(HostBreakers.class)
				.hasSingleBean(HttpBreakerInterceptor.class)
				.hasSingleBean(HttpBreakerFilter.class)
				.hasBean("httpBreakerRestClientCustomizer")
				.hasBean("httpBreakerRestTemplateCustomizer")
				.hasBean("httpBreakerWebClientCustomizer");
			get(context.getBean(RestClient.Builder.class).build(), this.server.uri("/status/200"));
			assertThat(context.getBean(BreakerRegistry.class).find(this.server.breakerName())).isPresent();
		});
	}

	@Test
	void switchedOffByProperty() {
		this.runner.withPropertyValues("breaker.http.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(HostBreakers.class)
				.doesNotHaveBean(HttpBreakerInterceptor.class)
				.doesNotHaveBean("httpBreakerRestClientCustomizer");
			get(context.getBean(RestClient.Builder.class).build(), this.server.uri("/status/200"));
			assertThat(this.server.requests()).isEqualTo(1);
			assertThat(context.getBean(BreakerRegistry.class).find(this.server.breakerName())).isEmpty();
		});
	}

	@Test
	void tuningTheHttpGroupIsNotTakenForATypo(CapturedOutput output) {
		this.runner.withPropertyValues("breaker.instances.http.consecutive-failures=3").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain("'breaker.instances.http' is configured");
		});
	}

	@Test
	void switchedOffWithAllBreakers() {
		this.runner.withPropertyValues("breaker.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HostBreakers.class));
	}

	@Test
	void withoutSpringBootRestClientOnlyWebClientIsGuarded() {
		this.runner.withClassLoader(new FilteredClassLoader(RestClientCustomizer.class, RestTemplateCustomizer.class))
			.run((context) -> assertThat(context).hasSingleBean(HostBreakers.class)
				.doesNotHaveBean("httpBreakerRestClientCustomizer")
				.doesNotHaveBean("httpBreakerRestTemplateCustomizer")
				.hasBean("httpBreakerWebClientCustomizer"));
	}

	@Test
	void withoutWebFluxThereIsNoFilter() {
		this.runner.withClassLoader(new FilteredClassLoader(WebClient.class, WebClientCustomizer.class))
			.run((context) -> assertThat(context).doesNotHaveBean(HttpBreakerFilter.class)
				.doesNotHaveBean("httpBreakerWebClientCustomizer")
				.hasBean("httpBreakerRestClientCustomizer"));
	}

	@Test
	void usersOwnHostBreakersWin() {
		this.runner
			.withBean("myHostBreakers", HostBreakers.class,
					() -> new HostBreakers(BreakerRegistry.builder().build(), HttpClassifier.defaults(),
							java.util.Map.of()))
			.run((context) -> assertThat(context).getBean(HostBreakers.class)
				.isSameAs(context.getBean("myHostBreakers")));
	}

	@Test
	void hostsAreBoundedByMaxHosts() throws IOException {
		try (LoopbackServer second = new LoopbackServer(); LoopbackServer third = new LoopbackServer()) {
			this.runner.withPropertyValues("breaker.http.max-hosts=2").run((context) -> {
				RestClient client = context.getBean(RestClient.Builder.class).build();
				get(client, this.server.uri("/status/200"));
				get(client, second.uri("/status/200"));
				get(client, third.uri("/status/200"));
				assertThat(context.getBean(BreakerRegistry.class).children(HostBreakers.GROUP)).hasSize(2);
			});
		}
	}

	@Test
	void anIdleExpiryLongerThanAWeekStopsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("breaker.http.idle-expiry=8d")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessage("Invalid value '192h' for property 'breaker.http.idle-expiry'; allowed: at most 168h"));
	}

	@Test
	void idleHostsExpire() throws IOException {
		try (LoopbackServer second = new LoopbackServer()) {
			this.runner.withPropertyValues("breaker.http.idle-expiry=1m").run((context) -> {
				RestClient client = context.getBean(RestClient.Builder.class).build();
				BreakerRegistry registry = context.getBean(BreakerRegistry.class);
				get(client, this.server.uri("/status/200"));
				context.getBean(ManualTicker.class).advance(Duration.ofMinutes(2));
				get(client, second.uri("/status/200"));
				assertThat(registry.children(HostBreakers.GROUP)).extracting(Breaker::name)
					.containsExactly(second.breakerName());
				assertThat(registry.find(this.server.breakerName())).isEmpty();
			});
		}
	}

	@Test
	void aHostTunedByPropertiesGetsItsOwnConfig() {
		this.runner
			.withPropertyValues("breaker.http.instances[API.acme.com].consecutive-failures=2",
					"breaker.defaults.consecutive-failures=7")
			.run((context) -> {
				BreakerRegistry registry = context.getBean(BreakerRegistry.class);
				assertThat(registry.breaker(HostBreakers.GROUP, "api.acme.com").config().consecutiveFailures())
					.isEqualTo(2);
				assertThat(registry.breaker(HostBreakers.GROUP, "other.acme.com").config().consecutiveFailures())
					.isEqualTo(7);
			});
	}

	@Test
	void aHostLongerThanTheKeyLimitIsShortenedAndKeepsItsOwnSettings() {
		String host = "a".repeat(200) + ".acme.com";
		this.runner
			.withPropertyValues("breaker.http.instances[" + host + "].consecutive-failures=2",
					"breaker.http.instances[" + host + "].status-outcomes.404=failure")
			.run((context) -> {
				Breaker breaker = context.getBean(HostBreakers.class).breaker(URI.create("https://" + host + "/x"));
				assertThat(breaker.key()).hasSize(128).startsWith("a".repeat(111) + "~");
				assertThat(breaker.config().consecutiveFailures()).isEqualTo(2);
				assertThat(context.getBean(HostBreakers.class).classify(breaker, 404, new HttpHeaders()))
					.isEqualTo(Outcome.FAILURE);
			});
	}

	@Test
	void aKeyLimitOutsideItsRangeStopsStartUp() {
		this.runner.withPropertyValues("breaker.http.max-key-length=16").run((context) -> {
			assertThat(context).hasFailed();
			InvalidBreakerPropertyException ex = rootCause(context.getStartupFailure(),
					InvalidBreakerPropertyException.class);
			assertThat(ex.getMessage()).isEqualTo(
					"Invalid value '16' for property 'breaker.http.max-key-length'; allowed: an integer in [32, 1024]");
		});
	}

	@Test
	void hostsWithoutTheirOwnSettingsUseTheHttpGroupSettings() {
		this.runner
			.withPropertyValues("breaker.instances.http.consecutive-failures=3",
					"breaker.defaults.consecutive-failures=7")
			.run((context) -> assertThat(context.getBean(BreakerRegistry.class)
				.breaker(HostBreakers.GROUP, "any.acme.com")
				.config()
				.consecutiveFailures()).isEqualTo(3));
	}

	@Test
	void aHostsOwnSettingsLayerOverTheHttpGroupSettings() {
		this.runner
			.withPropertyValues("breaker.defaults.consecutive-failures=7", "breaker.defaults.minimum-calls=9",
					"breaker.instances.http.consecutive-failures=3", "breaker.instances.http.open-wait=20s",
					"breaker.http.instances[api.acme.com].open-wait=10s")
			.run((context) -> {
				BreakerConfig config = context.getBean(BreakerRegistry.class)
					.breaker(HostBreakers.GROUP, "api.acme.com")
					.config();
				assertThat(config.openWait()).isEqualTo(Duration.ofSeconds(10));
				assertThat(config.consecutiveFailures()).isEqualTo(3);
				assertThat(config.minimumCalls()).isEqualTo(9);
			});
	}

	@Test
	void zeroMaxHostsStopsStartUp() {
		this.runner.withPropertyValues("breaker.http.max-hosts=0").run((context) -> {
			assertThat(context).hasFailed();
			InvalidBreakerPropertyException ex = rootCause(context.getStartupFailure(),
					InvalidBreakerPropertyException.class);
			assertThat(ex.property()).isEqualTo("breaker.http.max-hosts");
			assertThat(ex.value()).isEqualTo(0);
			assertThat(ex.allowed()).isEqualTo("at least 1");
		});
	}

	@Test
	void statusOutsideHttpStopsStartUp() {
		this.runner.withPropertyValues("breaker.http.status-outcomes.700=success").run((context) -> {
			assertThat(context).hasFailed();
			InvalidBreakerPropertyException ex = rootCause(context.getStartupFailure(),
					InvalidBreakerPropertyException.class);
			assertThat(ex.property()).isEqualTo("breaker.http.status-outcomes.700");
			assertThat(ex.allowed()).isEqualTo("an HTTP status in 100..599");
		});
	}

	@Test
	void badHostSettingStopsStartUpNamingTheHost() {
		this.runner.withPropertyValues("breaker.http.instances[api.acme.com].failure-rate-threshold=120")
			.run((context) -> {
				assertThat(context).hasFailed();
				InvalidBreakerPropertyException ex = rootCause(context.getStartupFailure(),
						InvalidBreakerPropertyException.class);
				assertThat(ex.property()).isEqualTo("breaker.http.instances[api.acme.com].failure-rate-threshold");
			});
	}

	@Test
	void aRetryOnThatIsNeitherAStatusNorAnOutcomeStopsStartUp() {
		for (String bad : new String[] { "700", "99", "success", "5xx" }) {
			this.runner.withPropertyValues("breaker.http.retry.on=failure," + bad).run((context) -> {
				assertThat(context).hasFailed();
				InvalidBreakerPropertyException ex = rootCause(context.getStartupFailure(),
						InvalidBreakerPropertyException.class);
				assertThat(ex).hasMessage("Invalid value '" + bad + "' for property 'breaker.http.retry.on[1]'; "
						+ "allowed: an HTTP status in 100..599, or failure, timeout or throttled");
			});
		}
	}

	@Test
	void aBadHostRetrySettingStopsStartUpNamingTheHost() {
		this.runner.withPropertyValues("breaker.http.instances[api.acme.com].retry.jitter=2").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(rootCause(context.getStartupFailure(), InvalidBreakerPropertyException.class))
				.hasMessage("Invalid value '2' for property 'breaker.http.instances[api.acme.com].retry.jitter'; "
						+ "allowed: a fraction in [0, 1]");
		});
	}

	@Test
	void aNegativeOrHugeHttpRetryIntervalStopsStartUp() {
		this.runner.withPropertyValues("breaker.http.retry.intervals=1s,-5ms")
			.run((context) -> assertThat(
					rootCause(context.getStartupFailure(), InvalidBreakerPropertyException.class).property())
				.isEqualTo("breaker.http.retry.intervals[1]"));
		this.runner.withPropertyValues("breaker.http.retry.intervals=25h")
			.run((context) -> assertThat(
					rootCause(context.getStartupFailure(), InvalidBreakerPropertyException.class).allowed())
				.isEqualTo("a duration from 0 to 24h"));
	}

	@Test
	void recordEachAttemptOnAHostStopsStartUp() {
		this.runner.withPropertyValues("breaker.http.instances[api.acme.com].retry.record-each-attempt=false")
			.run((context) -> {
				InvalidBreakerPropertyException ex = rootCause(context.getStartupFailure(),
						InvalidBreakerPropertyException.class);
				assertThat(ex.property()).isEqualTo("breaker.http.instances[api.acme.com].retry.record-each-attempt");
				assertThat(ex.allowed())
					.isEqualTo("unset: every attempt of an HTTP request asks the breaker and is recorded");
			});
	}

	@Test
	void aBadHostRetryBudgetStopsStartUpNamingTheHost() {
		this.runner.withPropertyValues("breaker.http.instances[api.acme.com].retry.budget.ratio=-1")
			.run((context) -> assertThat(
					rootCause(context.getStartupFailure(), InvalidBreakerPropertyException.class).property())
				.startsWith("breaker.http.instances[api.acme.com].retry.budget.ratio"));
	}

	@Test
	void hostRetrySettingsBindOverTheSettingsOfEveryHost() {
		this.runner
			.withPropertyValues("breaker.http.retry.intervals=100ms,200ms", "breaker.http.retry.on=503,timeout",
					"breaker.http.instances[api.acme.com].retry.intervals=1s",
					"breaker.http.instances[api.acme.com].retry.non-idempotent=true")
			.run((context) -> {
				HostBreakers breakers = context.getBean(HostBreakers.class);
				BreakerRegistry registry = context.getBean(BreakerRegistry.class);
				dev.breaker.http.HttpRetryPolicy other = breakers
					.retryPolicy(registry.breaker(HostBreakers.GROUP, "other.acme.com"));
				assertThat(other.intervals()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
				assertThat(other.statuses()).containsExactly(503);
				assertThat(other.outcomes()).containsExactly(dev.breaker.core.Outcome.TIMEOUT);
				assertThat(other.nonIdempotent()).isFalse();
				assertThat(other.jitter()).isEqualTo(0.5);
				dev.breaker.http.HttpRetryPolicy own = breakers
					.retryPolicy(registry.breaker(HostBreakers.GROUP, "api.acme.com"));
				assertThat(own.intervals()).containsExactly(Duration.ofSeconds(1));
				assertThat(own.statuses()).containsExactly(503);
				assertThat(own.nonIdempotent()).isTrue();
			});
	}

	@Test
	void httpRequestsDoNotRetryByDefault() {
		this.runner.withPropertyValues("breaker.defaults.retry.intervals=100ms").run((context) -> {
			HostBreakers breakers = context.getBean(HostBreakers.class);
			assertThat(breakers.retryPolicy(context.getBean(BreakerRegistry.class).breaker(HostBreakers.GROUP, "a.b"))
				.intervals()).isEmpty();
		});
	}

	private static <T extends Throwable> T rootCause(Throwable failure, Class<T> type) {
		for (Throwable current = failure; current != null; current = current.getCause()) {
			if (type.isInstance(current)) {
				return type.cast(current);
			}
		}
		throw new AssertionError("no " + type.getSimpleName() + " in " + failure, failure);
	}

	private static void get(RestClient client, URI uri) {
		client.get().uri(uri).retrieve().toBodilessEntity();
	}

}
