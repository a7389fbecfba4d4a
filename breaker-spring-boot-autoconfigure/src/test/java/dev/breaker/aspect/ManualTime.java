package dev.breaker.aspect;

import java.util.function.IntSupplier;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;

import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the aspect tests' contexts share: breakers on a manual ticker, and retry pauses
 * and timeouts on {@link ManualDelays}, so nothing really waits. Imported by each test's
 * own configuration.
 */
@Configuration(proxyBeanMethods = false)
class ManualTime {

	@Bean
	ManualTicker ticker() {
		return new ManualTicker();
	}

	@Bean
	ManualDelays delays() {
		return new ManualDelays();
	}

	/** The registry's breaker {@code name} in {@code context}. */
	static Breaker breaker(ApplicationContext context, String name) {
		return context.getBean(BreakerRegistry.class).breaker(name);
	}

	/**
	 * How many calls breaker {@code name} in {@code context} recorded with
	 * {@code outcome}.
	 */
	static long calls(ApplicationContext context, String name, Outcome outcome) {
		return breaker(context, name).totals().calls(outcome);
	}

	/**
	 * Cancels, with {@code cancel}, a call of breaker {@code name} that waits for its
	 * first retry, and checks that the caller's giving up ends it on every asynchronous
	 * path alike: the pause is cancelled, the permit is recorded as IGNORED at once, and
	 * no further attempt reaches the dependency (which {@code attempts} counts).
	 */
	static void assertCancellingThePauseEndsTheCall(ApplicationContext context, String name, Runnable cancel,
			IntSupplier attempts) {
		ManualDelays delays = context.getBean(ManualDelays.class);
		assertThat(delays.scheduled).as("pauses scheduled").hasSize(1);
		cancel.run();
		Breaker breaker = breaker(context, name);
		assertThat(breaker.snapshot().inFlight()).as("in flight once cancelled").isZero();
		assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
		assertThat(delays.waiting()).as("pauses still waiting").isZero();
		delays.runPending();
		assertThat(attempts.getAsInt()).as("attempts").isEqualTo(1);
		assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isZero();
	}

}
