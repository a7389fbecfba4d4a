package dev.breaker.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.breaker.core.BreakerRegistry;
import dev.breaker.http.HttpClients;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The children callers' keys create (tenants, hosts) cannot take more than
 * {@link BreakerSettings#CHILDREN_BUDGET_BYTES} a group: a configuration whose
 * {@code tenants.max} or {@code breaker.http.max-hosts} children could stops start-up
 * naming the property, the value, the estimate and the most children allowed, and that
 * most starts.
 */
class ChildrenMemoryTests {

	private static final Pattern AT_MOST = Pattern.compile("allowed: at most (\\d+) children of this window");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

	@Test
	void tenThousandTenantsOfATenMinuteWindowOfSecondsStopStartUpNamingTenantsMax() throws IOException {
		this.runner.withPropertyValues("breaker.instances.payments.window=10m", "breaker.instances.payments.bucket=1s")
			.run((context) -> {
				InvalidBreakerPropertyException failure = StartupFailure.invalidProperty(context);
				assertThat(failure.property()).isEqualTo("breaker.instances.payments.tenants.max");
				assertThat(failure).hasMessageStartingWith(
						"Invalid value '10000' for property 'breaker.instances.payments.tenants.max'; allowed: at most ")
					.hasMessageContaining("children of this window (10m of 1s buckets: about 117")
					.hasMessageContaining(
							" MiB for 10000 children, over the 256 MiB the children of one group may take)");
				// 10,000 children of 117 KB: 1.1 GiB
				assertThat(failure.getMessage()).contains("1118 MiB for 10000 children");
				assertThat(Files.readAllLines(Path.of("..", "docs", "configuration.md")))
					.as("docs/configuration.md quotes the message")
					.contains(failure.getMessage());
			});
	}

	@Test
	void theMostTenantsTheMessageAllowsStartAndOneMoreDoesNot() {
		String[] window = { "breaker.instances.payments.window=10m", "breaker.instances.payments.bucket=1s" };
		int[] allowed = new int[1];
		this.runner.withPropertyValues(window)
			.run((context) -> allowed[0] = atMost(StartupFailure.invalidProperty(context)));
		assertThat(allowed[0]).isBetween(2000, 2400);
		this.runner.withPropertyValues(window)
			.withPropertyValues("breaker.instances.payments.tenants.max=" + allowed[0])
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner.withPropertyValues(window)
			.withPropertyValues("breaker.instances.payments.tenants.max=" + (allowed[0] + 1))
			.run((context) -> assertThat(StartupFailure.invalidProperty(context).property())
				.isEqualTo("breaker.instances.payments.tenants.max"));
	}

	@Test
	void anHourOfSecondsInTheDefaultsNamesTheDefaultsTenantsMax() {
		this.runner.withPropertyValues("breaker.defaults.window=1h", "breaker.defaults.bucket=1s")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context)).hasMessageStartingWith(
					"Invalid value '10000' for property 'breaker.defaults.tenants.max'; allowed: at most 387 children")
				.hasMessageContaining("(1h of 1s buckets: about 693"));
	}

	@Test
	void theDefaultsAndAFewTenantsOfALongFineWindowStart() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(BreakerRegistry.class)).isNotNull();
		});
		this.runner
			.withPropertyValues("breaker.instances.payments.window=1h", "breaker.instances.payments.bucket=1s",
					"breaker.instances.payments.tenants.max=300")
			.run((context) -> assertThat(context).hasNotFailed());
		// the sample app's and the docs' tunings
		this.runner
			.withPropertyValues("breaker.defaults.window=10s", "breaker.defaults.bucket=1s",
					"breaker.instances.inventory.bucket=100ms", "breaker.instances.inventory.window=10s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aThousandHostsOfAnHourOfSecondsStopStartUpNamingMaxHosts() {
		HttpClients.restClientRunner("jdk")
			.withPropertyValues("breaker.instances.http.window=1h", "breaker.instances.http.bucket=1s",
					"breaker.instances.http.tenants.max=100")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context))
				.hasMessageStartingWith(
						"Invalid value '1000' for property 'breaker.http.max-hosts'; allowed: at most 380 children")
				.hasMessageContaining("(1h of 1s buckets: about 704"));
	}

	@Test
	void theHttpGroupsChildrenAreItsHostsCheckedByMaxHostsNotByTenantsMax() {
		// with the HTTP breakers on, the http group's children are hosts, never tenants
		HttpClients.restClientRunner("jdk")
			.withPropertyValues("breaker.instances.http.window=1h", "breaker.instances.http.bucket=1s")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context).property())
				.isEqualTo("breaker.http.max-hosts"));
		HttpClients.restClientRunner("jdk")
			.withPropertyValues("breaker.instances.http.window=1h", "breaker.instances.http.bucket=1s",
					"breaker.http.max-hosts=300")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void theDefaultHostsAndOneConfiguredHostOfAnHourOfSecondsStart() {
		HttpClients.restClientRunner("jdk").run((context) -> assertThat(context).hasNotFailed());
		// one host's own window counts once, not for every host
		HttpClients.restClientRunner("jdk")
			.withPropertyValues("breaker.http.instances[api.acme.com].window=1h",
					"breaker.http.instances[api.acme.com].bucket=1s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static int atMost(InvalidBreakerPropertyException failure) {
		Matcher m = AT_MOST.matcher(failure.getMessage());
		assertThat(m.find()).as(failure.getMessage()).isTrue();
		return Integer.parseInt(m.group(1));
	}

}
