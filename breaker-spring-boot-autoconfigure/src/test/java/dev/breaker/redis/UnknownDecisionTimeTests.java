package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import io.lettuce.core.KillArgs;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A replica that has not reached Redis since it started has no estimate of Redis's clock,
 * so its operator's untold override is "decided at -1". The reconnect read then treats
 * ANY decision Redis holds (even one from long before) as later.
 */
class UnknownDecisionTimeTests {

	@AutoClose
	private final OneReplica replica = new OneReplica();

	private final BreakerRegistry peers = OneReplica.systemTickerRegistry();

	@AutoClose
	private FleetSync peer;

	@Test
	void aForcedOpenMadeOnAReplicaStartedWhileRedisWasUnreachableWinsOverAnOlderStoredDisabled() throws Exception {
		peer = replica.redis.join(peers, "b", 1);
		Breaker there = peers.breaker("payments");
		peer.override(there, State.DISABLED, true);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "DISABLED"
				.equals(replica.admin.redis().hget(replica.settings.keyPrefix() + "{payments}:override", "state")));
		// the DISABLED is decided well before what follows: Redis's clock moves on
		long disabledAt = Long
			.parseLong(replica.admin.redis().hget(replica.settings.keyPrefix() + "{payments}:decided", "at"));
		await().atMost(Duration.ofSeconds(10)).until(() -> replica.redisTimeMillis() >= disabledAt + 50);

		// Redis becomes unreachable (a deploy while Redis is down); replica "a" starts
		// now
		replica.admin.redis().configSet("requirepass", "cut-off");
		replica.admin.redis().clientKill(KillArgs.Builder.typeNormal().skipme());
		replica.admin.redis().clientKill(KillArgs.Builder.typePubsub());
		await().atMost(Duration.ofSeconds(10)).until(() -> !peer.status().up());
		FleetSync sync = replica.sync;
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofMillis(500))).isFalse();
		Breaker payments = replica.registry.breaker("payments");

		// the operator's latest decision, fleet-wide, made after the DISABLED
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);

		replica.admin.redis().configSet("requirepass", "");
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(20))).isTrue();
		// the reconnect read and the resend settle the untold override (taken, or
		// dropped)
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.view("payments").untold() == null);

		assertThat(payments.state()).as("replica a, whose operator decided FORCED_OPEN last")
			.isEqualTo(State.FORCED_OPEN);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(there.state()).as("replica b").isEqualTo(State.FORCED_OPEN));
	}

}
