package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import dev.breaker.core.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * What a replica keeps of a message from the channel or a value from Redis is bounded: a
 * reason is cut to 200 characters as it is read, and a field longer than this fleet ever
 * writes (a replica id, a name, an episode, a signature) makes the whole message
 * malformed, dropped and counted before anything keeps it.
 */
class ForgedTextBoundsTests {

	private static final String HUGE = "x".repeat(1_000_000);

	@AutoClose
	private final OneReplica replica = new OneReplica();

	@Test
	void forgedOverridesOfBreakersThisReplicaDoesNotHaveKeepBoundedText() throws Exception {
		FleetSync sync = replica.started();
		int n = 40;
		for (int i = 0; i < n; i++) {
			publish(new FleetMessage(FleetMessage.Kind.OVERRIDE, "ghost-" + i, "", 0, State.DISABLED, "mallory-" + HUGE,
					System.currentTimeMillis(), HUGE, ""));
		}
		// heard after every forged one: once it is applied, they all were handled
		replica.peerOverride("marker", State.DISABLED);
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.entries().get("marker") != null);

		assertThat(keptText(sync)).as("characters of forged text kept for %s fleet-only overrides", n)
			.isLessThanOrEqualTo(FleetMessage.MAX_REASON + FleetMessage.MAX_REPLICA + "marker".length());
		assertThat(sync.entries().fleetOnlyCount()).as("only the marker").isEqualTo(1);
		assertThat(sync.status().rejected()).isEqualTo(n);
	}

	@Test
	void everyFieldLongerThanTheFleetWritesIsMalformedAndALongReasonIsCut() throws Exception {
		FleetSync sync = replica.started();
		long now = System.currentTimeMillis();
		String tooLong = "r".repeat(FleetMessage.MAX_REASON + 1);
		publish(new FleetMessage(FleetMessage.Kind.OVERRIDE, "long-reason", "", 0, State.DISABLED, "peer", now, tooLong,
				""));
		publish(new FleetMessage(FleetMessage.Kind.OVERRIDE, "long-replica", "", 0, State.DISABLED,
				"p".repeat(FleetMessage.MAX_REPLICA + 1), now, "operator", ""));
		publish(new FleetMessage(FleetMessage.Kind.OPEN, "long-episode", "e".repeat(FleetMessage.MAX_EPISODE + 1),
				30_000, null, "peer", now, "trip", ""));
		publish(new FleetMessage(FleetMessage.Kind.OPEN, "n".repeat(FleetMessage.MAX_NAME + 1), "e1", 30_000, null,
				"peer", now, "trip", ""));
		publish(new FleetMessage(FleetMessage.Kind.OPEN, "long-signature", "e1", 30_000, null, "peer", now, "trip",
				"s".repeat(FleetMessage.MAX_SIGNATURE + 1)));
		// at the bounds: taken
		FleetMessage atTheBounds = new FleetMessage(FleetMessage.Kind.OVERRIDE, "at-the-bounds", "", 0, State.DISABLED,
				"p".repeat(FleetMessage.MAX_REPLICA), now, "r".repeat(FleetMessage.MAX_REASON), "");
		assertThat(FleetMessage.decode(atTheBounds.encode())).isEqualTo(atTheBounds);
		publish(atTheBounds);
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.entries().get("at-the-bounds") != null);

		assertThat(sync.status().rejected()).as("all but the long reason").isEqualTo(4);
		assertThat(sync.entries().fleetOnlyCount()).isEqualTo(2);
		assertThat(sync.entries().get("long-reason").override().reason()).isEqualTo(tooLong.substring(1));
		assertThat(keptText(sync)).isEqualTo(("long-reason".length() + FleetMessage.MAX_REASON + "peer".length())
				+ ("at-the-bounds".length() + FleetMessage.MAX_REASON + FleetMessage.MAX_REPLICA));
	}

	@Test
	void aStoredOverrideReadByTheReconnectReadKeepsBoundedText() throws Exception {
		replica.admin.redis()
			.hset("breaker:{ghost}:override", Map.of("state", "DISABLED", "replica", "mallory", "reason", HUGE,
					"issued", Long.toString(System.currentTimeMillis()), "sig", ""));
		replica.admin.redis()
			.hset("breaker:{ghost-2}:override", Map.of("state", "DISABLED", "replica", HUGE, "reason", "operator",
					"issued", Long.toString(System.currentTimeMillis()), "sig", ""));
		FleetSync sync = replica.started();

		assertThat(sync.entries().get("ghost").override().reason()).hasSize(FleetMessage.MAX_REASON);
		assertThat(sync.entries().get("ghost-2")).as("a replica id of 1 MB").isNull();
		assertThat(sync.status().rejected()).isEqualTo(1);
		assertThat(keptText(sync)).isEqualTo("ghost".length() + FleetMessage.MAX_REASON + "mallory".length());
	}

	@Test
	void aReplicaIdPeersWouldDropStopsTheFleetSyncFromStarting() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Trust(MessageSigner.of(""), new RedisClock(),
					new SharedStoreStatus("r".repeat(FleetMessage.MAX_REPLICA + 1), Clock.systemUTC())))
			.withMessageContaining("at most " + FleetMessage.MAX_REPLICA);
	}

	/**
	 * A replica id of a mark's form ({@code ~wanted~}) would be read as that mark in the
	 * probe-slot hash: refused however the status was made (a user's own
	 * {@link SharedStoreStatus} bean is not checked by the properties' validation).
	 */
	@Test
	void aReplicaIdOfTheFormOfAMarkStopsTheFleetSyncFromStarting() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Trust(MessageSigner.of(""), new RedisClock(),
					new SharedStoreStatus("~wanted\n~", Clock.systemUTC())))
			.withMessageNotContaining("\n")
			.withMessageContaining("'~wanted\\n~'")
			.withMessageContaining("starting and ending with '~'");
	}

	private void publish(FleetMessage message) {
		replica.admin.publish(replica.settings.channel(), message.encode());
	}

	/** The characters every entry keeps of overrides: names, reasons and replica ids. */
	private static long keptText(FleetSync sync) {
		long kept = 0;
		for (FleetEntry entry : sync.entries().all()) {
			FleetMessage override = entry.override();
			if (override != null) {
				kept += override.breaker().length() + override.reason().length() + override.replica().length()
						+ override.episode().length() + override.signature().length();
			}
		}
		return kept;
	}

}
