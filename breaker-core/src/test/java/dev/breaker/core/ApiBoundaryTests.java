package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What breaker-core shows its users: the API package and the store SPI, never the
 * internal package or the fleet's hooks.
 */
class ApiBoundaryTests {

	@Test
	void theModuleExportsTheApiAndTheSpiOnly() {
		Module module = Breaker.class.getModule();

		assertThat(module.isNamed()).as("the tests run on the module path, inside the module").isTrue();
		assertThat(module.getDescriptor().exports()).map(ModuleDescriptor.Exports::source)
			.containsExactlyInAnyOrder("dev.breaker.core", "dev.breaker.core.spi");
		assertThat(module.getDescriptor().exports()).allSatisfy(e -> assertThat(e.isQualified()).isFalse());
		assertThat(module.getDescriptor().packages()).contains("dev.breaker.core.internal");
	}

	@Test
	void theFleetHooksAreNotPublicOnBreaker() {
		Set<String> publicMethods = Arrays.stream(Breaker.class.getMethods())
			.filter(m -> Modifier.isPublic(m.getModifiers()))
			.map(Method::getName)
			.collect(Collectors.toSet());

		assertThat(publicMethods).doesNotContain("openFromPeer", "closeFromPeer", "limitProbes", "tripNow");
		// a server's Retry-After hint stays public
		assertThat(publicMethods).contains("retryAfter");
	}

}
