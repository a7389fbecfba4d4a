package dev.breaker.autoconfigure.actuate;

import java.util.Arrays;
import java.util.Set;

import javax.management.MBeanException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The breakers endpoint over JMX: read-only unless write access is granted, as over the
 * web, and a hostile argument is refused with a bounded, printable message and changes
 * nothing.
 */
class BreakersEndpointJmxTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JmxAutoConfiguration.class, EndpointAutoConfiguration.class,
				JmxEndpointAutoConfiguration.class, BreakerAutoConfiguration.class,
				BreakerEndpointAutoConfiguration.class))
		.withPropertyValues("spring.jmx.enabled=true", "spring.jmx.unique-names=true",
				"management.endpoints.jmx.exposure.include=breakers");

	@Test
	void offersOnlyReadOperationsByDefault() {
		this.runner.run((context) -> {
			context.getBean(BreakerRegistry.class).breaker("payments");

			assertThat(operations(context)).contains("breakers", "breaker").doesNotContain("override", "reset");
		});
	}

	@Test
	void offersTheWritesWhenGrantedAndRefusesAHostileStateWithABoundedPrintableMessage() {
		this.runner.withPropertyValues("management.endpoint.breakers.access=UNRESTRICTED").run((context) -> {
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			registry.breaker("payments");
			assertThat(operations(context)).contains("override", "reset");
			String hostile = "\u001b[31m\r\nFORCED_OPEN" + "x".repeat(100_000);

			assertThatExceptionOfType(MBeanException.class)
				.isThrownBy(() -> invoke(context, "override", "payments", hostile, null))
				.satisfies((ex) -> {
					String message = String.valueOf(ex.getCause().getMessage());
					assertThat(message).hasSizeLessThan(400).doesNotContain("\u001b", "\r", "\n");
					assertThat(message).contains("'state' must be one of");
				});
			assertThat(registry.breaker("payments").state()).isEqualTo(State.CLOSED);
		});
	}

	@Test
	void anUnknownBreakerOrTenantChildIsNotCreatedByAnOverride() {
		this.runner.withPropertyValues("management.endpoint.breakers.access=UNRESTRICTED").run((context) -> {
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			registry.breaker("recommendations");

			assertThat(invoke(context, "override", "nothing-here", "FORCED_OPEN", null)).isNull();
			assertThat(invoke(context, "override", "recommendations:user-1", "FORCED_OPEN", null)).isNull();
			assertThat(invoke(context, "reset", "recommendations:user-2")).isNull();

			assertThat(registry.find("nothing-here")).isEmpty();
			assertThat(registry.children("recommendations")).isEmpty();
			assertThat(registry.breaker("recommendations").state()).isEqualTo(State.CLOSED);
		});
	}

	private static ObjectName name(AssertableApplicationContext context) throws Exception {
		MBeanServer server = context.getBean(MBeanServer.class);
		Set<ObjectName> names = server
			.queryNames(new ObjectName("org.springframework.boot:type=Endpoint,name=Breakers,*"), null);
		assertThat(names).hasSize(1);
		return names.iterator().next();
	}

	private static String[] operations(AssertableApplicationContext context) throws Exception {
		MBeanServer server = context.getBean(MBeanServer.class);
		return Arrays.stream(server.getMBeanInfo(name(context)).getOperations())
			.map((operation) -> operation.getName())
			.toArray(String[]::new);
	}

	private static Object invoke(AssertableApplicationContext context, String operation, Object... arguments)
			throws Exception {
		MBeanServer server = context.getBean(MBeanServer.class);
		String[] signature = new String[arguments.length];
		Arrays.fill(signature, String.class.getName());
		return server.invoke(name(context), operation, arguments, signature);
	}

}
