package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

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
		assertThat(breaker.acquire().granted()).isFalse();
		assertThat(Rejections.of(breaker)).isSameAs(breaker.rejection());
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
		assertThat(child.acquire().granted()).isFalse();
		assertThat(Rejections.of(child)).isSameAs(parent.rejection());
		assertThat(Rejections.of(child).breaker()).isEqualTo("recommendations");
	}

	@Test
	void anOpenChildRejectsWithItsOwnExceptionEvenWhenItsParentIsOpenToo() {
		Breaker child = registry.breaker("recommendations", "user-1");
		child.forceOpen();
		registry.breaker("recommendations").forceOpen();
		assertThat(child.acquire().granted()).isFalse();
		assertThat(Rejections.of(child)).isSameAs(child.rejection());
		assertThat(Rejections.of(child).breaker()).isEqualTo("recommendations:user-1");
	}

}
