package dev.breaker.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.core.BreakerRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation's YAML, read from the Markdown files themselves: every block of the
 * README's Quick start, and of the sections of {@code docs/} a first-time user copies
 * from, starts as pasted in an application with auto-configuration on and the Quick
 * start's guarded methods, and the Quick start names no breaker the code does not use.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReadmeYamlTests {

	private static final String README = "README.md";

	private static final String FALLBACKS = "docs/fallbacks-retries-async.md";

	/**
	 * The sections whose YAML a user pastes as it is, with the file each is in (fleet
	 * mode needs a Redis server, so it is left out).
	 */
	private static final List<Section> PASTED = List.of(new Section(README, "Quick start"),
			new Section(README, "A tour"), new Section(FALLBACKS, "Retries"), new Section(FALLBACKS, "Tenants"),
			new Section("docs/http-clients.md", "HTTP clients: a breaker per host"),
			new Section("docs/observability.md",
					"See it: `/actuator/breakers`, history, health, metrics, tracing, dashboard, alerts"),
			new Section("docs/migrating-from-resilience4j.md", "One instance, before and after"));

	private static final Pattern YAML = Pattern.compile("(?ms)^```yaml\\n(.*?)^```");

	static List<Block> pastedBlocks() throws IOException {
		List<Block> blocks = new ArrayList<>();
		for (Section section : PASTED) {
			blocks.addAll(blocks(section));
		}
		return blocks;
	}

	@Test
	void theQuickStartHasYamlToPaste() throws IOException {
		assertThat(blocks(new Section(README, "Quick start"))).hasSizeGreaterThanOrEqualTo(2);
	}

	@ParameterizedTest
	@MethodSource("pastedBlocks")
	void startsAsPasted(Block block) throws IOException {
		try (ConfigurableApplicationContext context = start(block)) {
			assertThat(context.getBean(BreakerRegistry.class)).isNotNull();
		}
	}

	@Test
	void theQuickStartConfiguresOnlyTheBreakersItsCodeUses(CapturedOutput output) throws IOException {
		for (Block block : blocks(new Section(README, "Quick start"))) {
			try (ConfigurableApplicationContext context = start(block)) {
				assertThat(output).as(block.toString()).doesNotContain("(a typo?)");
			}
		}
	}

	private static ConfigurableApplicationContext start(Block block) throws IOException {
		List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load(block.toString(),
				new ByteArrayResource(block.yaml().getBytes()));
		SpringApplication application = new SpringApplication(QuickStartApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.addInitializers((context) -> yaml.forEach(context.getEnvironment().getPropertySources()::addFirst));
		return application.run("--spring.main.banner-mode=off");
	}

	private static List<Block> blocks(Section section) throws IOException {
		String readme = Files.readString(Path.of("..").resolve(section.file()));
		int start = readme.indexOf("\n## " + section.heading() + "\n");
		assertThat(start).as("%s section '%s'", section.file(), section.heading()).isNotNegative();
		int end = readme.indexOf("\n## ", start + 1);
		String text = readme.substring(start, (end < 0) ? readme.length() : end);
		int firstLine = (int) readme.substring(0, start).lines().count() + 1;
		List<Block> blocks = new ArrayList<>();
		Matcher matcher = YAML.matcher(text);
		while (matcher.find()) {
			int line = firstLine + (int) text.substring(0, matcher.start()).lines().count();
			blocks.add(new Block(section, line, matcher.group(1)));
		}
		return blocks;
	}

	record Section(String file, String heading) {

	}

	record Block(Section section, int line, String yaml) {

		@Override
		public String toString() {
			return this.section.file() + ":" + this.line + " (" + this.section.heading() + ")";
		}

	}

	/**
	 * A new application with the Quick start's guarded methods, as the README shows them.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class QuickStartApplication {

		@Bean
		Checkout checkout() {
			return new Checkout();
		}

	}

	static class Checkout {

		@CircuitGuarded(name = "payments", fallbackMethod = "queueForLater")
		public String charge(String order) {
			return "charged " + order;
		}

		String queueForLater(String order, Throwable cause) {
			return "queued " + order;
		}

		@CircuitGuarded(name = "recommendations", tenant = "#userId",
				fallbackMethod = { "precomputed", "cached", "popular" })
		public List<String> recommend(String userId) {
			return List.of("for " + userId);
		}

		List<String> precomputed(String userId) {
			return List.of();
		}

		List<String> cached(String userId, Throwable cause) {
			return List.of();
		}

		List<String> popular(String userId) {
			return List.of();
		}

	}

}
