package dev.breaker.core;

import static dev.breaker.core.Fixture.fail;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * call() and a Throwable that is neither an Exception nor an Error (what Kotlin, Groovy,
 * Lombok's {@code @SneakyThrows} or a library's own Throwable can throw): the permit is
 * given back, the classifier decides the outcome, the Throwable reaches the caller
 * unchanged.
 */
class CallAnyThrowableTests {

	static final class Abort extends Throwable {

		Abort() {
			super("aborted", null, false, false);
		}

	}

	@SuppressWarnings("unchecked")
	static <T extends Throwable> void sneaky(Throwable t) throws T {
		throw (T) t;
	}

	private final Fixture fixture = new Fixture();

	private static Throwable callThrowing(Breaker breaker, Throwable thrown) {
		return catchThrowable(() -> breaker.call(() -> {
			sneaky(thrown);
			return null;
		}));
	}

	/**
	 * Opens on one failure for 30 s, then lets one probe at a time through; two failed
	 * probes reopen it (so one failed probe leaves it half-open).
	 */
	private static BreakerConfig.Builder oneProbeAfterOneFailure(BreakerConfig.Builder config) {
		return config.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(30))
			.halfOpenMaxProbes(1)
			.halfOpenFailuresToReopen(2);
	}

	@Test
	void aHalfOpenProbeEndingInAPlainThrowableGivesItsSlotBack() {
		Breaker breaker = fixture.breaker(c -> oneProbeAfterOneFailure(c).halfOpenMaxWait(Duration.ofMinutes(1)));
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);

		Abort abort = new Abort();
		assertThat(callThrowing(breaker, abort)).isSameAs(abort);

		fixture.advance(Duration.ofSeconds(1));
		Permit next = breaker.acquire();
		assertThat(next.granted())
			.as("the next probe after one ended in a Throwable (%s, probes %s)", breaker.state(),
					breaker.snapshot().probes())
			.isTrue();
	}

	@Test
	void aPlainThrowableIsRethrownUnchangedAndCountsAsAFailureByDefault() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(2));
		Abort abort = new Abort();

		assertThat(callThrowing(breaker, abort)).isSameAs(abort);
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
		assertThat(breaker.snapshot().inFlight()).as("calls in flight after it").isZero();
		assertThat(callThrowing(breaker, new Abort())).isInstanceOf(Abort.class);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void aPlainThrowableIsRecordedAsTheClassifierSays() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1)
			.classifier(OutcomeClassifier.builder().ignoreExceptions(Abort.class).build()));

		assertThat(callThrowing(breaker, new Abort())).isInstanceOf(Abort.class);

		assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aChildsPlainThrowableGivesItsParentsProbeSlotBackToo() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(oneProbeAfterOneFailure(fixture.config()).build())
			.children("tenants", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true))
			.build();
		Breaker parent = registry.breaker("tenants");
		fail(parent, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(parent.state()).isEqualTo(State.HALF_OPEN);
		Breaker child = registry.breaker("tenants", "acme");

		assertThat(callThrowing(child, new Abort())).isInstanceOf(Abort.class);

		assertThat(parent.snapshot().probes().inFlight()).as("the parent's probes in flight").isZero();
		assertThat(registry.breaker("tenants", "globex").acquire().granted())
			.as("another tenant's probe through the parent (%s)", parent.snapshot().probes())
			.isTrue();
	}

}
