package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * call(): runs, classifies with the config's classifier, times with the breaker's ticker,
 * rethrows unchanged.
 */
class CallTests {

	private final Fixture fixture = new Fixture();

	@Test
	void returnsTheResultAndRecordsASuccess() throws Exception {
		Breaker breaker = fixture.breaker(c -> c);
		assertThat(breaker.call(() -> "receipt")).isEqualTo("receipt");
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
	}

	@Test
	void rethrowsTheCallsExceptionUnchangedAndRecordsIt() {
		Breaker breaker = fixture.breaker(c -> c);
		IOException boom = new IOException("connection refused");
		assertThatThrownBy(() -> breaker.call(() -> {
			throw boom;
		})).isSameAs(boom);
		assertThatThrownBy(() -> breaker.call(() -> {
			throw new TimeoutException();
		})).isInstanceOf(TimeoutException.class);
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
		assertThat(breaker.totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
	}

	@Test
	void rethrowsAnErrorToo() {
		Breaker breaker = fixture.breaker(c -> c);
		assertThatThrownBy(() -> breaker.call(() -> {
			throw new StackOverflowError();
		})).isInstanceOf(StackOverflowError.class);
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
	}

	@Test
	void usesTheConfiguredClassifier() throws Exception {
		Breaker breaker = fixture
			.breaker(c -> c.classifier(OutcomeClassifier.builder().failureResult(r -> r.equals("DECLINED")).build()));
		breaker.call(() -> "DECLINED");
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
	}

	@Test
	void timesTheCallWithTheBreakersTicker() throws Exception {
		Breaker breaker = fixture.breaker(c -> c.slowCallDuration(Duration.ofSeconds(1)));
		breaker.call(() -> {
			fixture.advance(Duration.ofMillis(1500));
			return "slow";
		});
		assertThat(breaker.totals().slowCalls()).isEqualTo(1);
		assertThat(breaker.snapshot().slowCalls()).isEqualTo(1);
	}

	@Test
	void throwsThePreallocatedRejectionWhenOpen() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		Fixture.fail(breaker, 1);
		assertThatThrownBy(() -> breaker.call(() -> "x")).isSameAs(breaker.rejection());
	}

	@Test
	void aRejectedPermitIsIgnoredOnRelease() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		Fixture.fail(breaker, 1);
		Permit p = breaker.acquire();
		breaker.release(p, Outcome.FAILURE, 0);
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
	}

	@Test
	void aPermitOfAnotherBreakerIsRefused() {
		Breaker a = fixture.breaker(c -> c);
		Breaker b = Breaker.of("other", fixture.config().build());
		Permit p = a.acquire();
		assertThatThrownBy(() -> b.release(p, Outcome.SUCCESS, 0)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageStartingWith("not a permit of breaker 'other'");
	}

	@Test
	void timesEachCallFromItsOwnStartWhateverTheTickerReads() throws Exception {
		fixture.advance(Duration.ofSeconds(100));
		Breaker breaker = fixture.breaker(c -> c.slowCallDuration(Duration.ofSeconds(2)));
		breaker.call(() -> {
			fixture.advance(Duration.ofSeconds(1));
			return "quick";
		});
		assertThatThrownBy(() -> breaker.call(() -> {
			fixture.advance(Duration.ofSeconds(1));
			throw new IOException("quick failure");
		})).isInstanceOf(IOException.class);
		assertThat(breaker.totals().slowCalls()).isZero();
	}

	@Test
	void aTrackedClosedCallIsGranted() {
		Breaker breaker = fixture.breaker(c -> c.trackInFlight(true));
		Permit p = breaker.acquire();
		assertThat(p.granted()).isTrue();
		assertThat(breaker.snapshot().inFlight()).isEqualTo(1);
	}

}
