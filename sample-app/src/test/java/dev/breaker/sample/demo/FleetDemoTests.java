package dev.breaker.sample.demo;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole fleet demo, for real: an embedded redis-server, three replicas in fleet mode
 * on it, a wedged gateway, Redis killed and started again, the gateway healed; then its
 * closing table.
 */
class FleetDemoTests {

	@Test
	@Timeout(180)
	void aWedgedGatewayOpensEveryReplicaProbesStayBoundedAndRedisGoingAwayFailsNoCall() throws Exception {
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(new Both(System.out, printed), true, StandardCharsets.UTF_8);

		FleetResult result = new FleetDemo(out, new String[0]).run();

		assertThat(result.replicas()).extracting(FleetResult.Replica::name)
			.containsExactly("checkout-1", "checkout-2", "checkout-3");
		assertThat(result.replicas()).allSatisfy((replica) -> {
			assertThat(replica.tripMillis()).as("%s: wedge -> payments OPEN", replica.name()).isBetween(0L, 10_000L);
			assertThat(replica.closedMillis()).as("%s: heal -> payments CLOSED", replica.name()).isBetween(0L, 10_000L);
			assertThat(replica.storeSeenDown()).as("%s: its store saw Redis down", replica.name()).isTrue();
			assertThat(replica.storeErrors()).as("%s: Redis errors its store counted", replica.name()).isPositive();
			assertThat(replica.sentWhileRedisDown()).as("%s: requests while Redis was down", replica.name())
				.isPositive();
			assertThat(replica.failedWhileRedisDown()).as("%s: of those, failed", replica.name()).isZero();
		});
		assertThat(result.storeBackMillis()).as("restart -> every store up again").isBetween(0L, 10_000L);
		assertThat(result.failedWhileRedisDown()).isZero();
		// The fleet shares each round's probe slots: at most its bound reach the gateway.
		assertThat(result.probesPerRound())
			.isEqualTo(result.successesToClose() + result.failuresToReopen() + result.probeSlots() - 2);
		assertThat(result.recoveryRounds()).as("half-open rounds until the first close").isPositive();
		assertThat(result.recoveryProbes()).as("probes that reached the recovering gateway")
			.isBetween(0L, result.probeBound());

		// The closing table shows these very values.
		String table = printed.toString(StandardCharsets.UTF_8);
		table = table.substring(table.indexOf("=== fleet summary"));
		for (FleetResult.Replica replica : result.replicas()) {
			assertThat(table).contains(String.format(Locale.ROOT, "%.2f s", replica.tripMillis() / 1000.0));
		}
		assertThat(table).contains("calls failed because of Redis: 0 ")
			.contains("probes that reached the recovering gateway fleet-wide (counted by the gateway, from the heal to"
					+ " the first close): " + result.recoveryProbes() + " in " + result.recoveryRounds() + " half-open")
			.contains("[met   ] the trip reaches every replica")
			.contains("[met   ] 0 calls failed because of Redis")
			.doesNotContain("[missed]");
	}

	/** Prints to the console as the demo runs and keeps a copy to check. */
	private static final class Both extends OutputStream {

		private final OutputStream first;

		private final OutputStream second;

		Both(OutputStream first, OutputStream second) {
			this.first = first;
			this.second = second;
		}

		@Override
		public void write(int b) throws java.io.IOException {
			this.first.write(b);
			this.second.write(b);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws java.io.IOException {
			this.first.write(bytes, offset, length);
			this.second.write(bytes, offset, length);
		}

		@Override
		public void flush() throws java.io.IOException {
			this.first.flush();
			this.second.flush();
		}

	}

}
