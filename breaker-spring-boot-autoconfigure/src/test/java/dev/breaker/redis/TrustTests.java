package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;

import dev.breaker.core.State;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a replica believes: with a signing key, only what the fleet signed, and only while
 * it is fresh by Redis's clock.
 */
class TrustTests {

	private static final long REDIS_NOW = 1_764_000_000_000L;

	private final SharedStoreStatus status = new SharedStoreStatus("me", Clock.systemUTC());

	private final RedisClock clock = new RedisClock();

	private final Trust signed = new Trust(MessageSigner.of("signing-key-of-the-checkout-fleet"), clock, status);

	private final Trust forger = new Trust(MessageSigner.of("a-key-that-is-not-the-fleets"), clock, status);

	private final Trust unsigned = new Trust(MessageSigner.of(""), clock, status);

	@BeforeEach
	void redisTimeIsKnown() {
		long now = System.nanoTime();
		clock.sample(REDIS_NOW, now, now);
	}

	@Test
	void aSignedFreshAnnouncementIsBelieved() {
		FleetMessage open = signed.issue(FleetMessage.Kind.OPEN, "payments", "e1", 30_000, null, "r1", "trip");

		assertThat(signed.accept(open, open.encode())).isTrue();
		assertThat(status.rejected()).isZero();
	}

	@Test
	void anUnsignedAForgedOrAnAlteredAnnouncementIsDroppedAndCounted() {
		FleetMessage open = signed.issue(FleetMessage.Kind.OPEN, "payments", "e1", 30_000, null, "r1", "trip");
		FleetMessage stretched = new FleetMessage(open.kind(), open.breaker(), open.episode(), 315_360_000_000L, null,
				open.replica(), open.issuedAt(), open.reason(), open.signature());

		assertThat(signed.accept(unsigned.issue(FleetMessage.Kind.OPEN, "payments", "e1", 30_000, null, "r1", "x"), ""))
			.isFalse();
		assertThat(signed.accept(forger.issue(FleetMessage.Kind.OPEN, "payments", "e1", 30_000, null, "r1", "x"), ""))
			.isFalse();
		assertThat(signed.accept(stretched, "")).isFalse();
		assertThat(status.rejected()).isEqualTo(3);
	}

	@Test
	void aSignedAnnouncementIssuedLongAgoOrInTheFutureIsAReplay() {
		FleetMessage open = signed.issue(FleetMessage.Kind.OPEN, "payments", "e1", 30_000, null, "r1", "trip");
		long now = System.nanoTime();

		clock.sample(open.issuedAt() + Trust.SKEW_MILLIS + 1_000, now, now);
		assertThat(signed.accept(open, "")).isFalse();
		clock.sample(open.issuedAt() - Trust.SKEW_MILLIS - 1_000, now, now);
		assertThat(signed.accept(open, "")).isFalse();
	}

	@Test
	void aStoredOpenRunsNoLongerThanItsSignedTtlWhateverRedisTtlSays() {
		FleetMessage open = signed.issue(FleetMessage.Kind.OPEN, "payments", "e1", 30_000, null, "r1", "trip");

		assertThat(signed.acceptStored(open)).isTrue();
		assertThat(signed.remainingStored(open, 600_000)).isBetween(29_000L, 30_000L);
		assertThat(unsigned.remainingStored(open, 600_000)).isEqualTo(600_000);
	}

	@Test
	void anAnnouncedOpenRunsNoLongerThanItsSignedIssueTimePlusItsTtl() {
		FleetMessage open = signed.issue(FleetMessage.Kind.OPEN, "payments", "e1", 20_000, null, "r1", "trip");
		// Redis's time is set relative to the signed issue time, which is REDIS_NOW plus
		// however long this thread took to get from the sample to issuing (more than a
		// millisecond on a loaded machine)
		long issued = open.issuedAt();
		long now = System.nanoTime();

		assertThat(signed.remainingAnnounced(open)).isBetween(19_000L, 20_000L);
		clock.sample(issued + 15_000, now, now);
		assertThat(signed.remainingAnnounced(open)).isBetween(4_000L, 5_000L);
		clock.sample(issued + 25_000, now, now);
		assertThat(signed.remainingAnnounced(open)).isZero();
		clock.sample(issued - 10_000, now, now);
		assertThat(signed.remainingAnnounced(open)).as("issued ahead of this replica's estimate").isEqualTo(20_000);
		// unsigned, the issue time proves nothing: the relative TTL counts
		clock.sample(issued + 25_000, now, now);
		assertThat(unsigned.remainingAnnounced(open)).isEqualTo(20_000);
	}

	@Test
	void withoutAKeyAnythingWellFormedIsBelievedAndMalformedIsNot() {
		FleetMessage forged = forger.issue(FleetMessage.Kind.OPEN, "payments", "e1", 30_000, null, "r1", "x");

		assertThat(unsigned.accept(forged, "")).isTrue();
		assertThat(unsigned.accept(null, "OPEN\n1\n2\nr9\npayments\nx")).isFalse();
		assertThat(unsigned.accept(new FleetMessage(FleetMessage.Kind.OPEN, "payments", "e1", 0, null, "r1", 1, "", ""),
				""))
			.isFalse();
		assertThat(unsigned.accept(
				new FleetMessage(FleetMessage.Kind.OVERRIDE, "payments", "", 0, State.HALF_OPEN, "r1", 1, "", ""), ""))
			.isFalse();
		assertThat(unsigned.accept(new FleetMessage(FleetMessage.Kind.OPEN, "x".repeat(Trust.MAX_NAME + 1), "e1", 5,
				null, "r1", 1, "", ""), ""))
			.isFalse();
	}

	@Test
	void votesProbeClaimsAndWindowCountsCarryTheFleetsSignature() {
		String vote = "9999999999999|" + signed.vote("payments", "r1", 30_000);
		assertThat(signed.countsVote("payments", "r1", vote)).isTrue();
		assertThat(signed.countsVote("payments", "r2", vote)).isFalse();
		assertThat(signed.countsVote("payments", "mallory", "9999999999999|" + REDIS_NOW + "|600000|")).isFalse();

		String claim = "2|9999999999999|" + signed.claim("payments", "e1", "r1", 2);
		assertThat(signed.genuineHolder("payments", "e1", "r1", claim)).isTrue();
		assertThat(signed.genuineHolder("payments", "e2", "r1", claim)).isFalse();
		assertThat(signed.genuineHolder("payments", "e1", "r1", "3" + claim.substring(1))).isFalse();

		String counts = signed.windowCounts("payments", "7:r1", 5, 2, 1);
		assertThat(signed.windowCounts("payments", "7:r1", counts)).containsExactly(5, 2, 1);
		assertThat(signed.windowCounts("payments", "7:r1", "50|2|1|" + counts.substring(counts.lastIndexOf('|') + 1)))
			.isNull();
		assertThat(signed.windowCounts("payments", "7:r1", "-5|2|1|")).isNull();
	}

}
