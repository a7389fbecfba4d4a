package dev.breaker.autoconfigure;

import java.io.FileNotFoundException;
import java.io.IOException;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code ignore-exceptions} entry wins over {@code record-exceptions} anywhere in the
 * cause chain, so one that covers a recorded exception (its class or a supertype), or one
 * that covers every exception, would leave the breaker unable to trip on it: start-up
 * stops naming both properties and their values instead.
 */
class ExceptionListsStartupTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

	@Test
	void aRecordedExceptionWhoseSupertypeIsIgnoredStopsStartUpNamingBothEntries() {
		this.runner
			.withPropertyValues(
					"breaker.instances.payments.record-exceptions=java.util.concurrent.TimeoutException,"
							+ "java.net.ConnectException",
					"breaker.instances.payments.ignore-exceptions=java.io.IOException")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context))
				.hasMessage("Invalid value 'java.net.ConnectException' for property "
						+ "'breaker.instances.payments.record-exceptions[1]'; allowed: an exception class no "
						+ "ignore-exceptions entry covers: 'breaker.instances.payments.ignore-exceptions[0]' is "
						+ "'java.io.IOException', which ignores it and its subclasses, so it would never count; "
						+ "remove one of the two"));
	}

	@Test
	void aRecordedExceptionThatIsAlsoIgnoredStopsStartUp() {
		this.runner
			.withPropertyValues("breaker.instances.payments.record-exceptions=java.io.IOException",
					"breaker.instances.payments.ignore-exceptions=java.lang.IllegalStateException,java.io.IOException")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context).allowed())
				.contains("'breaker.instances.payments.ignore-exceptions[1]' is 'java.io.IOException'"));
	}

	@Test
	void aCoveringIgnoredExceptionInheritedFromTheDefaultsIsNamedWhereItWasWritten() {
		this.runner
			.withPropertyValues("breaker.defaults.ignore-exceptions=java.io.IOException",
					"breaker.instances.payments.record-exceptions=java.net.SocketTimeoutException")
			.run((context) -> {
				InvalidBreakerPropertyException failure = StartupFailure.invalidProperty(context);
				assertThat(failure.property()).isEqualTo("breaker.instances.payments.record-exceptions[0]");
				assertThat(failure.allowed())
					.contains("'breaker.defaults.ignore-exceptions[0]' is 'java.io.IOException'");
			});
	}

	@Test
	void ignoringEveryExceptionStopsStartUp() {
		for (String everything : new String[] { "java.lang.Exception", "java.lang.Throwable" }) {
			this.runner.withPropertyValues("breaker.instances.payments.ignore-exceptions=" + everything)
				.run((context) -> assertThat(StartupFailure.invalidProperty(context))
					.hasMessage("Invalid value '" + everything + "' for property "
							+ "'breaker.instances.payments.ignore-exceptions[0]'; allowed: the exceptions that are "
							+ "the caller's fault, not " + everything
							+ ": it ignores every failure and timeout, so the breaker would never trip"));
		}
	}

	@Test
	void reportsBothEntriesInTheFailureAnalysis() {
		this.runner
			.withPropertyValues("breaker.instances.payments.record-exceptions=java.io.IOException",
					"breaker.instances.payments.ignore-exceptions=java.lang.Exception")
			.run((context) -> {
				FailureAnalysis analysis = new InvalidBreakerPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains(
						"Property: breaker.instances.payments.record-exceptions[0]", "Value:    'java.io.IOException'",
						"'breaker.instances.payments.ignore-exceptions[0]' is 'java.lang.Exception'");
			});
	}

	@Test
	void anIgnoredSubclassOfARecordedExceptionStartsAndNarrowsIt() {
		this.runner
			.withPropertyValues("breaker.instances.payments.record-exceptions=java.io.IOException",
					"breaker.instances.payments.ignore-exceptions=java.io.FileNotFoundException",
					"breaker.instances.payments.consecutive-failures=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Breaker payments = context.getBean(BreakerRegistry.class).breaker("payments");
				fail(payments, new FileNotFoundException("no such receipt"));
				assertThat(payments.state()).isEqualTo(State.CLOSED);
				fail(payments, new IOException("connection refused"));
				assertThat(payments.state()).isEqualTo(State.OPEN);
			});
	}

	private static void fail(Breaker breaker, Exception error) {
		try {
			breaker.call(() -> {
				throw error;
			});
		}
		catch (Exception expected) {
			// the breaker records it and passes it on
		}
	}

}
