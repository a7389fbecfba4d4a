package dev.breaker.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.BreakerSetting.Scope;
import org.junit.jupiter.api.Test;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.UrlResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata IDEs read: every property described, every default stated
 * and equal to what the code really uses.
 */
class ConfigurationMetadataTests {

	@Test
	void describesEveryProperty() throws IOException {
		List<Map<String, Object>> properties = properties();
		assertThat(properties).hasSizeGreaterThan(25)
			.allSatisfy((property) -> assertThat((String) property.get("description")).as("%s", property.get("name"))
				.isNotBlank());
	}

	@Test
	void describesEveryPropertyAndGroupInPlainText() throws IOException {
		List<Map<String, Object>> described = new ArrayList<>(properties());
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
	void describesEverySettingInTheWordsOfTheTable() throws IOException {
		Map<String, Object> descriptions = new HashMap<>();
		for (Map<String, Object> property : properties()) {
			descriptions.put((String) property.get("name"), property.get("description"));
		}
		assertThat(BreakerSetting.values()).allSatisfy((setting) -> {
			String name = BreakerProperties.DEFAULTS_PREFIX + "." + setting.property();
			assertThat(descriptions.get(name)).as("description of %s", name).isEqualTo(setting.hint());
		});
	}

	@Test
	void statesTheEngineDefaults() throws IOException {
		BreakerConfig engine = BreakerConfig.defaults();
		Map<String, Object> defaults = new HashMap<>();
		for (Map<String, Object> property : properties()) {
			defaults.put((String) property.get("name"), property.get("defaultValue"));
		}
		assertThat(BreakerSetting.of(Scope.ENGINE)).allSatisfy((setting) -> {
			String name = setting.property();
			Object stated = defaults.get(BreakerProperties.DEFAULTS_PREFIX + "." + name);
			Object actual = setting.read(engine);
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
		List<String> builderSettings = Arrays.stream(BreakerConfig.Builder.class.getDeclaredMethods())
			.filter((method) -> Modifier.isPublic(method.getModifiers()) && method.getParameterCount() == 1)
			.map(Method::getName)
			.filter((name) -> !List.of("classifier", "ticker", "clock").contains(name))
			.toList();
		assertThat(BreakerSetting.of(Scope.ENGINE)).extracting(BreakerSetting::settingName)
			.hasSizeGreaterThan(15)
			.containsExactlyInAnyOrderElementsOf(builderSettings);
		assertThat(BreakerSetting.of(Scope.ENGINE)).allSatisfy(
				(setting) -> assertThat(names).contains(BreakerProperties.DEFAULTS_PREFIX + "." + setting.property()));
		// the table's keys and accessors checked against the builder's names, not against
		// the table itself
		BreakerConfig engine = BreakerConfig.builder().halfOpenMaxProbes(7).build();
		assertThat(BreakerSetting.of(Scope.ENGINE)).allSatisfy((setting) -> {
			assertThat(setting.property()).as(setting.settingName()).isEqualTo(property(setting.settingName()));
			Object getter = BreakerConfig.class.getMethod(setting.settingName()).invoke(engine);
			assertThat(setting.read(engine)).as(setting.settingName()).isEqualTo(getter);
		});
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
		Map<String, Object> defaults = new HashMap<>();
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
			// HostsPolicy uses the same default
			.isEqualTo(BreakerSetting.RETRY_JITTER.defaultValue());
		assertThat(defaults.get("breaker.metrics.host-tags")).isEqualTo(false)
			.isEqualTo(new dev.breaker.autoconfigure.actuate.BreakerMetricsProperties().isHostTags());
		assertThat(defaults.get("breaker.metrics.tenant-tags")).isEqualTo(false)
			.isEqualTo(new dev.breaker.autoconfigure.actuate.BreakerMetricsProperties().isTenantTags());
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
