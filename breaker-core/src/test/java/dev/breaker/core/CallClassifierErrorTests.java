package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CallClassifierErrorTests {

	private final Fixture fixture = new Fixture();

	@Test
	void aClassifierThrowingAVirtualMachineErrorLeavesTheCallersErrorToTheCaller() {
		Breaker breaker = halfOpenWithAClassifierThrowingOnErrors();
		Throwable thrown = catchThrowable(() -> breaker.call(() -> {
			throw new IOException("down");
		}));
		assertThat(thrown).as("what the caller got").isInstanceOf(IOException.class);
	}

	@Test
	void aClassifierThrowingAVirtualMachineErrorStillGivesTheProbeSlotBack() {
		Breaker breaker = halfOpenWithAClassifierThrowingOnErrors();
		catchThrowable(() -> breaker.call(() -> {
			throw new IOException("down");
		}));
		this.fixture.advance(Duration.ofSeconds(1));
		assertThat(breaker.acquire().granted()).as("next probe (%s)", breaker.snapshot().probes()).isTrue();
	}

	/**
	 * A HALF_OPEN breaker with one probe slot, whose classifier overflows on an error.
	 */
	private Breaker halfOpenWithAClassifierThrowingOnErrors() {
		Breaker breaker = this.fixture.breaker((c) -> c.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(30))
			.halfOpenMaxProbes(1)
			.halfOpenFailuresToReopen(2)
			.classifier((result, error) -> {
				if (error != null) {
					throw new StackOverflowError("classifier");
				}
				return Outcome.SUCCESS;
			}));
		Permit first = breaker.acquire();
		breaker.release(first, Outcome.FAILURE, 0);
		this.fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		return breaker;
	}

}
