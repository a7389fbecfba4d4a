package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;

import dev.breaker.core.State;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With signing on, an override is believed once: heard again, or issued well before the
 * latest override taken for its breaker, it is a replay, dropped and counted.
 */
class TrustOverrideReplayTests {

	private static final long REDIS_NOW = 1_764_000_000_000L;

	private final SharedStoreStatus status = new SharedStoreStatus("me", Clock.systemUTC());

	private final RedisClock clock = new RedisClock();

	private final Trust signed = new Trust(MessageSigner.of("signing-key-of-the-checkout-fleet"), clock, status);

	private final Trust unsigned = new Trust(MessageSigner.of(""), clock, status);

	@BeforeEach
	void redisTimeIsKnown() {
		redisTimeIs(REDIS_NOW);
	}

	@Test
	void aSignedOverrideHeardTwiceIsTakenOnce() {
		FleetMessage disabled = override(signed, "payments", State.DISABLED, "peer");

		assertThat(signed.accept(disabled, disabled.encode())).isTrue();
		assertThat(signed.accept(disabled, disabled.encode())).as("the same override again").isFalse();
		assertThat(status.rejected()).isEqualTo(1);
	}

	@Test
	void aSignedOverrideIssuedWellBeforeTheLatestOneTakenIsNotNews() {
		FleetMessage disabled = override(signed, "payments", State.DISABLED, "peer");
		redisTimeIs(REDIS_NOW + OverrideLedger.ORDER_SLACK_MILLIS + 1_000);
		FleetMessage reset = override(signed, "payments", State.CLOSED, "peer");

		assertThat(signed.accept(reset, reset.encode())).isTrue();
		assertThat(signed.accept(disabled, disabled.encode()))
			.as("the DISABLED issued before the reset, never heard here, still fresh")
			.isFalse();
		assertThat(status.rejected()).isEqualTo(1);
	}

	@Test
	void overridesIssuedWithinTheSlackOfEachOtherAreTakenInTheOrderTheyCome() {
		FleetMessage first = override(signed, "payments", State.DISABLED, "peer-1");
		redisTimeIs(REDIS_NOW + OverrideLedger.ORDER_SLACK_MILLIS);
		FleetMessage second = override(signed, "payments", State.FORCED_OPEN, "peer-2");
		FleetMessage otherBreaker = override(signed, "quotes", State.DISABLED, "peer-1");

		assertThat(signed.accept(second, "")).isTrue();
		assertThat(signed.accept(first, "")).as("Redis published it after the other").isTrue();
		assertThat(signed.accept(otherBreaker, "")).isTrue();
		assertThat(status.rejected()).isZero();
	}

	@Test
	void thisReplicasOwnOverrideIsLeftToItsOwnBookkeeping() {
		FleetMessage own = override(signed, "payments", State.DISABLED, "me");
		redisTimeIs(REDIS_NOW + OverrideLedger.ORDER_SLACK_MILLIS + 1_000);
		FleetMessage peers = override(signed, "payments", State.CLOSED, "peer");

		assertThat(signed.accept(peers, "")).isTrue();
		assertThat(signed.accept(own, "")).as("its own, told back late").isTrue();
		assertThat(signed.accept(own, "")).as("its own, heard again").isFalse();
	}

	@Test
	void withoutSigningAnOverrideHeardAgainIsTakenAgain() {
		FleetMessage disabled = override(unsigned, "payments", State.DISABLED, "peer");

		assertThat(unsigned.accept(disabled, "")).isTrue();
		assertThat(unsigned.accept(disabled, "")).isTrue();
	}

	@Test
	void theSignaturesKeptAreBounded() {
		for (int i = 0; i < OverrideLedger.MOST + 100; i++) {
			FleetMessage override = override(signed, "b" + i, State.DISABLED, "peer");
			assertThat(signed.accept(override, "")).isTrue();
		}
		assertThat(signed.overridesTaken()).isEqualTo(OverrideLedger.MOST);
	}

	/**
	 * An operator's override of {@code breaker} on every replica, made on
	 * {@code replica}, issued now (in Redis's time) through {@code trust}.
	 */
	private static FleetMessage override(Trust trust, String breaker, State state, String replica) {
		return trust.issue(FleetMessage.Kind.OVERRIDE, breaker, "", 0, state, replica, "operator");
	}

	private void redisTimeIs(long millis) {
		long now = System.nanoTime();
		clock.sample(millis, now, now);
	}

}
