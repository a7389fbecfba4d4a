package dev.breaker.aspect;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the breaker sits among a bean's other advisors: {@code breaker.advisor-order}
 * against {@code @Transactional}'s order (lower runs outside), while {@code @Retryable}
 * always wraps it.
 */
class AdvisorOrderTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0");

	@Test
	void runsOutsideTransactionalByDefaultSoAnOpenBreakerOpensNoTransaction() {
		this.runner.withUserConfiguration(DefaultTransactionOrder.class).run((context) -> {
			Ledger ledger = context.getBean(Ledger.class);
			Transactions transactions = context.getBean(Transactions.class);
			context.getBean(BreakerRegistry.class).breaker("ledger").forceOpen();
			assertThat(ledger.post("a")).isEqualTo("queued a (no transaction)");
			assertThat(transactions.log()).isEmpty();
		});
	}

	@Test
	void runsOutsideTransactionalByDefaultSoTheFallbackRunsAfterTheRollback() {
		this.runner.withUserConfiguration(DefaultTransactionOrder.class).run((context) -> {
			Ledger ledger = context.getBean(Ledger.class);
			ledger.script().then(new IOException("reset"));
			assertThat(ledger.post("a")).isEqualTo("queued a (no transaction)");
			assertThat(context.getBean(Transactions.class).log()).containsExactly("begin", "rollback");
		});
	}

	@Test
	void runsInsideTransactionalWhenItsOrderIsHigher() {
		this.runner.withUserConfiguration(EarlyTransactions.class)
			.withPropertyValues("breaker.advisor-order=" + (EarlyTransactions.ORDER + 1))
			.run((context) -> {
				Ledger ledger = context.getBean(Ledger.class);
				context.getBean(BreakerRegistry.class).breaker("ledger").forceOpen();
				assertThat(ledger.post("a")).isEqualTo("queued a (in a transaction)");
				assertThat(context.getBean(Transactions.class).log()).containsExactly("begin", "commit");
			});
	}

	@Test
	void runsOutsideTransactionalWhenItsOrderIsLower() {
		this.runner.withUserConfiguration(EarlyTransactions.class)
			.withPropertyValues("breaker.advisor-order=" + (EarlyTransactions.ORDER - 1))
			.run((context) -> {
				Ledger ledger = context.getBean(Ledger.class);
				context.getBean(BreakerRegistry.class).breaker("ledger").forceOpen();
				assertThat(ledger.post("a")).isEqualTo("queued a (no transaction)");
				assertThat(context.getBean(Transactions.class).log()).isEmpty();
			});
	}

	@Test
	void everyRetryOfTheBreakerRunsInANewTransactionInsideIt() {
		this.runner.withUserConfiguration(DefaultTransactionOrder.class)
			.withPropertyValues("breaker.instances.ledger.retry.intervals=0ms,0ms")
			.run((context) -> {
				Ledger ledger = context.getBean(Ledger.class);
				ledger.script().then(new IOException("1"), new IOException("2"));
				assertThat(ledger.post("a")).isEqualTo("posted a (in a transaction)");
				assertThat(context.getBean(Transactions.class).log()).containsExactly("begin", "rollback", "begin",
						"rollback", "begin", "commit");
				assertThat(context.getBean(BreakerRegistry.class).breaker("ledger").totals().calls(Outcome.SUCCESS))
					.isEqualTo(1);
			});
	}

	@Test
	void retryableWrapsTheBreakerWhateverItsOrder() {
		this.runner.withUserConfiguration(DefaultTransactionOrder.class, Retries.class)
			.withPropertyValues("breaker.advisor-order=" + Ordered.HIGHEST_PRECEDENCE)
			.run((context) -> {
				RetriedLedger ledger = context.getBean(RetriedLedger.class);
				ledger.script().then(new IOException("1"), new IOException("2"), "posted");
				assertThat(ledger.post()).isEqualTo("posted");
				BreakerRegistry registry = context.getBean(BreakerRegistry.class);
				assertThat(registry.breaker("retried").totals().calls(Outcome.FAILURE)).isEqualTo(2);
				assertThat(registry.breaker("retried").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			});
	}

	@Test
	void aBadAdvisorOrderStopsStartUpNamingTheProperty() {
		this.runner.withUserConfiguration(DefaultTransactionOrder.class)
			.withPropertyValues("breaker.advisor-order=outside")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'breaker.advisor-order' to java.lang.Integer")
				.rootCause()
				.hasMessageContaining("outside"));
	}

	/**
	 * A transaction manager with nothing to manage: it logs what the transaction
	 * interceptor asks of it.
	 */
	static class Transactions extends AbstractPlatformTransactionManager {

		private final List<String> log = new CopyOnWriteArrayList<>();

		List<String> log() {
			return this.log;
		}

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
			this.log.add("begin");
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
			this.log.add("commit");
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
			this.log.add("rollback");
		}

	}

	static class Ledger {

		private final Script script = new Script();

		@Transactional(rollbackFor = Exception.class)
		@CircuitGuarded(name = "ledger", fallbackMethod = "queue")
		public String post(String entry) throws Exception {
			this.script.next();
			return "posted " + entry + where();
		}

		String queue(String entry) {
			return "queued " + entry + where();
		}

		private static String where() {
			return TransactionSynchronizationManager.isActualTransactionActive() ? " (in a transaction)"
					: " (no transaction)";
		}

		Script script() {
			return this.script;
		}

	}

	static class RetriedLedger {

		private final Script script = new Script();

		@Retryable(maxRetries = 2, delay = 0)
		@CircuitGuarded(name = "retried")
		public String post() throws Exception {
			return (String) this.script.next();
		}

		Script script() {
			return this.script;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Transactions transactionManager() {
			return new Transactions();
		}

		@Bean
		Ledger ledger() {
			return new Ledger();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class DefaultTransactionOrder extends Services {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(order = EarlyTransactions.ORDER)
	static class EarlyTransactions extends Services {

		static final int ORDER = 100;

	}

	@Configuration(proxyBeanMethods = false)
	@EnableResilientMethods
	static class Retries {

		@Bean
		RetriedLedger retriedLedger() {
			return new RetriedLedger();
		}

	}

}
