package dev.breaker.aspect;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Ticker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tenant expression that cannot be evaluated for a call (a property of a null argument,
 * a key whose {@code toString()} throws) never breaks the call: it goes through the
 * dependency's breaker alone, as a {@code null} tenant does, and a warning says so, at
 * most once a minute for the method.
 */
class TenantExpressionFailuresTests {

	private final ManualTicker ticker = new ManualTicker();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(Ticker.class, () -> this.ticker)
		.withBean(Orders.class);

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private final Logger logger = Logger.getLogger(GuardedMethod.class.getName());

	private final Handler handler = new Handler() {

		@Override
		public void publish(LogRecord record) {
			if (record.getLevel() == Level.WARNING) {
				TenantExpressionFailuresTests.this.warnings.add(record.getMessage());
			}
		}

		@Override
		public void flush() {
		}

		@Override
		public void close() {
		}

	};

	@BeforeEach
	void listen() {
		this.logger.addHandler(this.handler);
	}

	@AfterEach
	void stopListening() {
		this.logger.removeHandler(this.handler);
	}

	@Test
	void aTenantThatCannotBeEvaluatedUsesTheDependencysBreakerAloneAndIsLoggedAtMostOnceAMinute() {
		this.runner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);

			assertThat(orders.place(new Order("c-1"))).isEqualTo("placed for c-1");
			// an anonymous checkout: no order; the method copes with that
			assertThat(orders.place(null)).isEqualTo("placed for nobody");
			assertThat(orders.place(null)).isEqualTo("placed for nobody");

			assertThat(registry.children("orders")).hasSize(1);
			assertThat(registry.breaker("orders").totals().calls(Outcome.SUCCESS)).isEqualTo(3);
			assertThat(this.warnings).singleElement()
				.asString()
				.startsWith("the tenant of breaker 'orders' (#order.customerId) could not be evaluated; the call "
						+ "went through the breaker alone: ")
				.contains("SpelEvaluationException")
				.doesNotContain("\n");

			this.ticker.advance(Duration.ofMinutes(1));
			assertThat(orders.place(null)).isEqualTo("placed for nobody");
			assertThat(this.warnings).hasSize(2);
			assertThat(this.warnings.get(1)).endsWith(" (and 1 more since the last warning)");
		});
	}

	@Test
	void aTenantKeyWhoseToStringThrowsUsesTheDependencysBreakerAlone() {
		this.runner.run((context) -> {
			Orders orders = context.getBean(Orders.class);

			assertThat(orders.byKey(new Unprintable())).isEqualTo("served");

			assertThat(context.getBean(BreakerRegistry.class).children("keys")).isEmpty();
			assertThat(this.warnings).singleElement().asString().contains("IllegalStateException: no text\\nFORGED");
		});
	}

	record Order(String customerId) {
	}

	static final class Unprintable {

		@Override
		public String toString() {
			throw new IllegalStateException("no text\nFORGED");
		}

	}

	static class Orders {

		@CircuitGuarded(name = "orders", tenant = "#order.customerId")
		public String place(Order order) {
			return "placed for " + ((order != null) ? order.customerId() : "nobody");
		}

		@CircuitGuarded(name = "keys", tenant = "#key")
		public String byKey(Object key) {
			return "served";
		}

	}

}
