package dev.breaker.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.breaker.aspect.CallPolicy;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.BreakerSetting.Scope;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.UrlResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every place that states a setting's default states the table's
 * ({@link BreakerSetting}): the engine, the registry, the starter's merging, the
 * configuration metadata and the README.
 */
class SettingDefaultsTests {

	/** The user documentation holding the table of every property. */
	static final Path PROPERTIES_DOC = Path.of("..", "docs", "configuration.md");

	/** The user documentation holding the table of the engine's builder settings. */
	static final Path ENGINE_DOC = Path.of("..", "docs", "engine.md");

	/** The heading of the table of every property. */
	private static final String PROPERTIES_TABLE = "## Configuration reference";

	/** The heading of the table of the engine's builder settings. */
	private static final String ENGINE_TABLE = "### `BreakerConfig` defaults";

	@Test
	void theEnginesDefaultChildrenKeepAsManyTenantsAsTheStartersDefault() throws IOException {
		assertThat(BreakerRegistry.Children.DEFAULT.maxEntries())
			.isEqualTo(metadataDefaults().get("breaker.defaults.tenants.max"));
	}

	@Test
	void theEngineStartsFromTheTablesDefaults() {
		BreakerConfig engine = BreakerConfig.defaults();
		assertThat(BreakerSetting.of(Scope.ENGINE)).hasSizeGreaterThan(20)
			.allSatisfy((setting) -> assertThat(setting.read(engine)).as(setting.settingName())
				.isEqualTo(setting.defaultValue()));
	}

	@Test
	void theRegistrysDefaultChildrenAreTheTablesTenantDefaults() {
		BreakerRegistry.Children children = BreakerRegistry.Children.DEFAULT;
		assertThat(children.maxEntries()).isEqualTo(BreakerSetting.TENANTS_MAX.defaultValue());
		assertThat(children.idleExpiry()).isEqualTo(BreakerSetting.TENANTS_IDLE_EXPIRY.defaultValue());
		assertThat(children.minFailingChildren()).isEqualTo(BreakerSetting.TENANTS_MIN_FAILING.defaultValue());
		assertThat(children.maxKeyLength()).isEqualTo(BreakerSetting.TENANTS_MAX_KEY_LENGTH.defaultValue());
	}

	@Test
	void anUnconfiguredBreakerGetsTheTablesDefaults() {
		BreakerSettings merged = BreakerSettings.merge(BreakerProperties.DEFAULTS_PREFIX,
				new BreakerProperties.Instance(), null, new ManualTicker(), OutcomeClassifier.defaults(),
				getClass().getClassLoader());
		BreakerSetting.of(Scope.ENGINE)
			.forEach((setting) -> assertThat(setting.read(merged.config())).as(setting.settingName())
				.isEqualTo(setting.defaultValue()));
		assertThat(merged.children().maxEntries()).isEqualTo(BreakerSetting.TENANTS_MAX.defaultValue());
		assertThat(merged.children().idleExpiry()).isEqualTo(BreakerSetting.TENANTS_IDLE_EXPIRY.defaultValue());
		assertThat(merged.children().minFailingChildren()).isEqualTo(BreakerSetting.TENANTS_MIN_FAILING.defaultValue());
		assertThat(merged.children().maxKeyLength()).isEqualTo(BreakerSetting.TENANTS_MAX_KEY_LENGTH.defaultValue());
		CallPolicy call = merged.callPolicy();
		assertThat(call.timeout()).isEqualTo(BreakerSetting.TIMEOUT.defaultValue());
		assertThat(call.retry().intervals()).isEqualTo(BreakerSetting.RETRY_INTERVALS.defaultValue());
		assertThat(call.retry().jitter()).isEqualTo(BreakerSetting.RETRY_JITTER.defaultValue());
		assertThat(call.retry().on()).containsExactlyInAnyOrderElementsOf(BreakerSetting.RETRY_ON.defaultAs());
		assertThat(call.retry().recordEachAttempt()).isEqualTo(BreakerSetting.RETRY_RECORD_EACH_ATTEMPT.defaultValue());
		assertThat(merged.healthWhenOpen().name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.isEqualTo(BreakerSetting.HEALTH_WHEN_OPEN.defaultValue());
	}

	@Test
	void thePropertiesFieldsAreInitialisedToTheTablesDefaults() {
		BeanWrapper instance = PropertyAccessorFactory.forBeanPropertyAccess(new BreakerProperties.Instance());
		assertThat(BreakerSetting.values()).allSatisfy((setting) -> {
			Object initial = instance.getPropertyValue(LayeredInstance.beanPath(setting));
			if (setting.defaultValue() != null) {
				assertThat(initial).as(setting.property() + " in BreakerProperties.Instance is initialised")
					.isNotNull();
			}
			Object stated = (initial instanceof Enum<?> e) ? e.name().toLowerCase(Locale.ROOT).replace('_', '-')
					: initial;
			assertSameDefault(setting.property() + " in BreakerProperties.Instance", stated, setting);
		});
	}

	@Test
	void theMetadataStatesTheTablesDefaultForEverySetting() throws IOException {
		Map<String, Object> metadata = metadataDefaults();
		assertThat(BreakerSetting.values()).allSatisfy((setting) -> {
			String name = BreakerProperties.DEFAULTS_PREFIX + "." + setting.property();
			assertThat(metadata).as("metadata of %s", name).containsKey(name);
			assertSameDefault(name + " in the metadata", metadata.get(name), setting);
		});
	}

	@Test
	void theMetadataOfTheDefaultsHoldsNoSettingTheTableLacks() throws IOException {
		List<String> settings = Arrays.stream(BreakerSetting.values())
			.map((setting) -> BreakerProperties.DEFAULTS_PREFIX + "." + setting.property())
			.toList();
		assertThat(metadataDefaults().keySet())
			.filteredOn((name) -> name.startsWith(BreakerProperties.DEFAULTS_PREFIX + "."))
			.containsExactlyInAnyOrderElementsOf(settings);
	}

	@Test
	void theHttpRetryDefaultsAreTheTables() throws IOException {
		Map<String, Object> metadata = metadataDefaults();
		assertSameDefault("breaker.http.retry.jitter", metadata.get("breaker.http.retry.jitter"),
				BreakerSetting.RETRY_JITTER);
		assertSameDefault("breaker.http.retry.on", metadata.get("breaker.http.retry.on"), BreakerSetting.RETRY_ON);
		assertSameDefault("breaker.http.retry.intervals", metadata.get("breaker.http.retry.intervals"),
				BreakerSetting.RETRY_INTERVALS);
	}

	@Test
	void theReadmePropertiesTableListsEverySettingWithTheTablesDefault() throws IOException {
		Map<String, String> documented = table(PROPERTIES_DOC, PROPERTIES_TABLE);
		documented.remove("breaker.enabled");
		documented.remove("breaker.advisor-order");
		assertThat(documented.keySet()).as("settings in %s, %s", PROPERTIES_DOC, PROPERTIES_TABLE)
			.containsExactlyInAnyOrderElementsOf(
					Arrays.stream(BreakerSetting.values()).map(BreakerSetting::property).toList());
		for (BreakerSetting setting : BreakerSetting.values()) {
			String cell = documented.get(setting.property());
			Object stated = cell.equals("none") ? null : cell;
			assertSameDefault(setting.property() + " in " + PROPERTIES_TABLE, stated, setting);
		}
	}

	@Test
	void theReadmeEngineTableListsEveryEngineSettingWithTheTablesDefault() throws IOException {
		Map<String, String> documented = table(ENGINE_DOC, ENGINE_TABLE);
		documented.keySet().removeAll(List.of("classifier", "ticker", "clock"));
		assertThat(documented.keySet()).as("settings in %s, %s", ENGINE_DOC, ENGINE_TABLE)
			.containsExactlyInAnyOrderElementsOf(
					BreakerSetting.of(Scope.ENGINE).stream().map(BreakerSetting::settingName).toList());
		for (BreakerSetting setting : BreakerSetting.of(Scope.ENGINE)) {
			assertSameDefault(setting.settingName() + " in " + ENGINE_TABLE, documented.get(setting.settingName()),
					setting);
		}
	}

	/** A stated default (metadata JSON or a README cell) is the table's. */
	private static void assertSameDefault(String where, Object stated, BreakerSetting setting) {
		Object expected = setting.defaultValue();
		if (expected == null) {
			assertThat(stated).as(where).isNull();
		}
		else if (expected instanceof Duration duration) {
			assertThat(DurationStyle.detectAndParse(String.valueOf(stated))).as(where).isEqualTo(duration);
		}
		else if (expected instanceof Number number) {
			double value = (stated instanceof Number n) ? n.doubleValue() : Double.parseDouble(String.valueOf(stated));
			assertThat(value).as(where).isEqualTo(number.doubleValue());
		}
		else if (expected instanceof Boolean flag) {
			assertThat(String.valueOf(stated)).as(where).isEqualTo(flag.toString());
		}
		else if (expected instanceof List<?> list) {
			List<String> names = list.stream().map((e) -> String.valueOf(e).toLowerCase(Locale.ROOT)).toList();
			assertThat(listed(stated)).as(where).isEqualTo(names);
		}
		else {
			assertThat(String.valueOf(stated)).as(where).isEqualTo(expected);
		}
	}

	/** A JSON array, or a README cell such as {@code [failure, timeout]}. */
	private static List<String> listed(Object stated) {
		if (stated instanceof List<?> list) {
			return list.stream().map(String::valueOf).toList();
		}
		String cell = String.valueOf(stated).trim();
		assertThat(cell).startsWith("[").endsWith("]");
		String inner = cell.substring(1, cell.length() - 1).trim();
		return inner.isEmpty() ? List.of() : Arrays.stream(inner.split(",")).map(String::trim).toList();
	}

	/**
	 * The first two columns of the markdown table under {@code heading}: the setting
	 * (unquoted) and its default (the first code span, else the first word).
	 */
	private static Map<String, String> table(Path doc, String heading) throws IOException {
		List<String> lines = Files.readAllLines(doc);
		int start = lines.indexOf(heading);
		assertThat(start).as("heading '%s' in %s", heading, doc).isNotNegative();
		Map<String, String> rows = new LinkedHashMap<>();
		boolean inTable = false;
		for (String line : lines.subList(start + 1, lines.size())) {
			if (line.startsWith("|")) {
				inTable = true;
				List<String> cells = cells(line);
				if (cells.size() >= 2 && cells.get(0).startsWith("`")) {
					rows.put(cells.get(0).replace("`", ""), value(cells.get(1)));
				}
			}
			else if (inTable || line.startsWith("#")) {
				break;
			}
		}
		assertThat(rows).as("rows of the table under '%s'", heading).isNotEmpty();
		return rows;
	}

	private static List<String> cells(String line) {
		List<String> cells = new ArrayList<>();
		for (String cell : line.substring(1).split("\\|")) {
			cells.add(cell.trim());
		}
		return cells;
	}

	private static String value(String cell) {
		if (cell.startsWith("`")) {
			return cell.substring(1, cell.indexOf('`', 1));
		}
		int space = cell.indexOf(' ');
		return (space < 0) ? cell : cell.substring(0, space);
	}

	private static Map<String, Object> metadataDefaults() throws IOException {
		URL classes = BreakerProperties.class.getProtectionDomain().getCodeSource().getLocation();
		try (InputStream metadata = new UrlResource(classes)
			.createRelative("META-INF/spring-configuration-metadata.json")
			.getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.parse(metadata).read("$.properties");
			Map<String, Object> defaults = new HashMap<>();
			properties.forEach((property) -> defaults.put((String) property.get("name"), property.get("defaultValue")));
			return defaults;
		}
	}

}
