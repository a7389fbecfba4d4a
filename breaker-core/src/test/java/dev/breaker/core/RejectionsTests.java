package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a caller refused by an open breaker gets: the exception of the breaker that
 * refused.
 */
class RejectionsTests {

	private final Fixture fixture = new Fixture();

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(fixture.config().build())
		.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(10), true))
		.build();

	@Test
	void aTopLevelBreakerRejectsWithItsOwnException() {
		Breaker breaker = registry.breaker("payments");
		breaker.forceOpen();
		Permit refused = breaker.acquire();
		assertThat(refused.granted()).isFalse();
		assertThat(Rejections.of(refused)).isSameAs(breaker.rejection());
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void aClosedOrDisabledChildRefusedByItsParentGetsTheParentsException(boolean disabled) {
		Breaker child = registry.breaker("recommendations", "user-1");
		if (disabled) {
			child.disable();
		}
		Breaker parent = registry.breaker("recommendations");
		parent.forceOpen();
		Permit refused = child.acquire();
		assertThat(refused.granted()).isFalse();
		assertThat(Rejections.of(refused)).isSameAs(parent.rejection());
		assertThat(Rejections.of(refused).breaker()).isEqualTo("recommendations");
	}

	@Test
	void anOpenChildRejectsWithItsOwnExceptionEvenWhenItsParentIsOpenToo() {
		Breaker child = registry.breaker("recommendations", "user-1");
		child.forceOpen();
		registry.breaker("recommendations").forceOpen();
		Permit refused = child.acquire();
		assertThat(refused.granted()).isFalse();
		assertThat(Rejections.of(refused)).isSameAs(child.rejection());
		assertThat(Rejections.of(refused).breaker()).isEqualTo("recommendations:user-1");
	}

	@Test
	void aGrantedPermitIsNoRejection() {
		Breaker breaker = registry.breaker("payments");
		Permit granted = breaker.acquire();
		assertThatIllegalArgumentException().isThrownBy(() -> Rejections.of(granted));
		breaker.release(granted, Outcome.SUCCESS, 0);
	}

	@Test
	void aHalfOpenChildWhoseProbeItsParentRefusedGetsTheParentsException() throws Exception {
		Breaker child = registry.breaker("recommendations", "user-1");
		Fixture.fail(child, 5);
		fixture.advance(Duration.ofSeconds(31));
		assertThat(child.state()).isEqualTo(State.HALF_OPEN);
		Breaker parent = registry.breaker("recommendations");
		parent.forceOpen();
		Permit refused = child.acquire();
		assertThat(refused.granted()).isFalse();
		assertThat(Rejections.of(refused)).as("message: %s", Rejections.of(refused).getMessage())
			.isSameAs(parent.rejection());
		assertThatExceptionOfType(BreakerOpenException.class).isThrownBy(() -> child.call(() -> "x"))
			.isSameAs(parent.rejection());
	}

}
