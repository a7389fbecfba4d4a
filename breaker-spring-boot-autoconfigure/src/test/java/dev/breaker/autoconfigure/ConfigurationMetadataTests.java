package dev.breaker.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.jayway.jsonpath.JsonPath;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerSetting;
import org.junit.jupiter.api.Test;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.UrlResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata IDEs read: every property described, every default stated
 * and equal to what the code really uses.
 */
class ConfigurationMetadataTests {

	private static final Map<String, Function<BreakerConfig, Object>> ENGINE_DEFAULTS = Map.ofEntries(
			Map.entry("window", BreakerConfig::window), Map.entry("bucket", BreakerConfig::bucket),
			Map.entry("consecutive-failures", BreakerConfig::consecutiveFailures),
			Map.entry("failure-rate-threshold", BreakerConfig::failureRateThreshold),
			Map.entry("minimum-calls", BreakerConfig::minimumCalls),
			Map.entry("minimum-calls-ratio", BreakerConfig::minimumCallsRatio),
			Map.entry("retry.budget.ratio", BreakerConfig::retryBudgetRatio),
			Map.entry("retry.budget.min-per-second", BreakerConfig::retryBudgetMinPerSecond),
			Map.entry("slow-call-duration", BreakerConfig::slowCallDuration),
			Map.entry("slow-call-rate-threshold", BreakerConfig::slowCallRateThreshold),
			Map.entry("stall-calls", BreakerConfig::stallCalls),
			Map.entry("track-in-flight", BreakerConfig::trackInFlight),
			Map.entry("record-latency", BreakerConfig::recordLatency),
			Map.entry("timeout-weight", BreakerConfig::timeoutWeight), Map.entry("open-wait", BreakerConfig::openWait),
			Map.entry("open-wait-multiplier", BreakerConfig::openWaitMultiplier),
			Map.entry("max-open-wait", BreakerConfig::maxOpenWait),
			Map.entry("open-wait-jitter", BreakerConfig::openWaitJitter),
			Map.entry("half-open.max-probes", BreakerConfig::halfOpenMaxProbes),
			Map.entry("half-open.successes-to-close", BreakerConfig::halfOpenSuccessesToClose),
			Map.entry("half-open.failures-to-reopen", BreakerConfig::halfOpenFailuresToReopen),
			Map.entry("half-open.max-wait", BreakerConfig::halfOpenMaxWait));

	@Test
	void describesEveryProperty() throws IOException {
		List<Map<String, Object>> properties = properties();
		assertThat(properties).hasSizeGreaterThan(25)
			.allSatisfy((property) -> assertThat((String) property.get("description")).as("%s", property.get("name"))
				.isNotBlank());
	}

	@Test
	void describesEveryPropertyAndGroupInPlainText() throws IOException {
		List<Map<String, Object>> described = new java.util.ArrayList<>(properties());
		described.addAll(metadata("$.groups"));
		assertThat(described).filteredOn((entry) -> entry.get("description") != null)
			.hasSizeGreaterThan(25)
			.allSatisfy((entry) -> assertThat((String) entry.get("description")).as("%s", entry.get("name"))
				.doesNotContainPattern("\\{@|</?[a-zA-Z][^>]*>|&[a-zA-Z]+;|&#"));
	}

	@Test
	void statesADefaultForEveryPropertyButTheOptionalTimeout() throws IOException {
		assertThat(properties()).filteredOn((property) -> !property.get("name").equals("breaker.instances"))
			// maps keyed by the user (breaker.http.instances,
			// breaker.http.status-outcomes) start empty
			.filteredOn((property) -> !String.valueOf(property.get("type")).startsWith("java.util.Map<"))
			.filteredOn((property) -> !property.get("name").equals("breaker.defaults.timeout"))
			.allSatisfy((property) -> assertThat(property).as("%s", property.get("name")).containsKey("defaultValue"));
	}

	@Test
	void statesTheEngineDefaults() throws IOException {
		BreakerConfig engine = BreakerConfig.defaults();
		Map<String, Object> defaults = new java.util.HashMap<>();
		for (Map<String, Object> property : properties()) {
			defaults.put((String) property.get("name"), property.get("defaultValue"));
		}
		ENGINE_DEFAULTS.forEach((name, accessor) -> {
			Object stated = defaults.get("breaker.defaults." + name);
			Object actual = accessor.apply(engine);
			if (actual instanceof Boolean flag) {
				assertThat(stated).as(name).isEqualTo(flag);
			}
			else if (actual instanceof Duration duration) {
				assertThat(DurationStyle.detectAndParse((String) stated)).as(name).isEqualTo(duration);
			}
			else {
				assertThat(((Number) stated).doubleValue()).as(name).isEqualTo(((Number) actual).doubleValue());
			}
		});
	}

	@Test
	void coversEveryEngineSetting() throws IOException {
		List<String> names = properties().stream().map((property) -> (String) property.get("name")).toList();
		List<String> settings = Arrays.stream(BreakerConfig.Builder.class.getDeclaredMethods())
			.filter((method) -> Modifier.isPublic(method.getModifiers()) && method.getParameterCount() == 1)
			.map(Method::getName)
			.filter((name) -> !List.of("classifier", "ticker", "clock").contains(name))
			.toList();
		assertThat(settings).hasSizeGreaterThan(15)
			.allSatisfy((setting) -> assertThat(names).contains("breaker.defaults." + property(setting)));
		assertThat(ENGINE_DEFAULTS.keySet()).hasSameSizeAs(settings);
	}

	/**
	 * {@code halfOpenMaxProbes} is {@code half-open.max-probes}, {@code retryBudgetRatio}
	 * is {@code retry.budget.ratio}, {@code openWait} is {@code open-wait}.
	 */
	private static String property(String setting) {
		String kebab = setting.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
		if (kebab.startsWith("retry-budget-")) {
			return "retry.budget." + kebab.substring("retry-budget-".length());
		}
		return kebab.startsWith("half-open-") ? "half-open." + kebab.substring("half-open-".length()) : kebab;
	}

	@Test
	void statesTheStartersOwnDefaults() throws IOException {
		Map<String, Object> defaults = new java.util.HashMap<>();
		for (Map<String, Object> property : properties()) {
			defaults.put((String) property.get("name"), property.get("defaultValue"));
		}
		assertThat(((Number) defaults.get("breaker.defaults.retry.jitter")).doubleValue())
			.isEqualTo(BreakerSetting.RETRY_JITTER.defaultValue());
		assertThat(defaults.get("breaker.defaults.tenants.max")).isEqualTo(BreakerSetting.TENANTS_MAX.defaultValue());
		assertThat(DurationStyle.detectAndParse((String) defaults.get("breaker.defaults.tenants.idle-expiry")))
			.isEqualTo(BreakerSetting.TENANTS_IDLE_EXPIRY.defaultValue());
		assertThat(defaults.get("breaker.defaults.retry.on")).isEqualTo(List.of("failure", "timeout"));
		assertThat(defaults.get("breaker.defaults.tenants.min-failing"))
			.isEqualTo(BreakerSetting.TENANTS_MIN_FAILING.defaultValue());
		assertThat(defaults.get("breaker.defaults.tenants.max-key-length"))
			.isEqualTo(BreakerSetting.TENANTS_MAX_KEY_LENGTH.defaultValue());
		assertThat(defaults.get("breaker.http.max-key-length"))
			.isEqualTo(dev.breaker.core.ChildKeys.DEFAULT_MAX_LENGTH);
		assertThat(BreakerSetting.RETRY_ON.<List<Enum<?>>>defaultAs()).extracting(Enum::name)
			.containsExactly("FAILURE", "TIMEOUT");
		assertThat(defaults.get("breaker.http.retry.on")).isEqualTo(List.of("failure", "timeout"));
		assertThat(((Number) defaults.get("breaker.http.retry.jitter")).doubleValue())
			.isEqualTo(BreakerSetting.RETRY_JITTER.defaultValue()); // HostsPolicy uses
																	// the same default
		assertThat(defaults.get("breaker.advisor-order")).isEqualTo(BreakerProperties.DEFAULT_ADVISOR_ORDER)
			.isEqualTo(new BreakerProperties().getAdvisorOrder());
	}

	private static List<Map<String, Object>> properties() throws IOException {
		return metadata("$.properties");
	}

	private static List<Map<String, Object>> metadata(String path) throws IOException {
		URL classes = BreakerProperties.class.getProtectionDomain().getCodeSource().getLocation();
		try (InputStream metadata = new UrlResource(classes)
			.createRelative("META-INF/spring-configuration-metadata.json")
			.getInputStream()) {
			return JsonPath.parse(metadata).read(path);
		}
	}

}
