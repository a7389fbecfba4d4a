package dev.breaker.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.breaker.core.BreakerRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.UrlResource;

import static org.assertj.core.api.Assertions.assertThat;

/** Every place that states a setting's default states the same one. */
class SettingDefaultsTests {

	@Test
	void theEnginesDefaultChildrenKeepAsManyTenantsAsTheStartersDefault() throws IOException {
		assertThat(BreakerRegistry.Children.DEFAULT.maxEntries())
			.isEqualTo(metadataDefaults().get("breaker.defaults.tenants.max"));
	}

	private static Map<String, Object> metadataDefaults() throws IOException {
		URL classes = BreakerProperties.class.getProtectionDomain().getCodeSource().getLocation();
		try (InputStream metadata = new UrlResource(classes).createRelative("META-INF/spring-configuration-metadata.json")
			.getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.parse(metadata).read("$.properties");
			Map<String, Object> defaults = new HashMap<>();
			properties.forEach((property) -> defaults.put((String) property.get("name"), property.get("defaultValue")));
			return defaults;
		}
	}

}
