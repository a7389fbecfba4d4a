package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.breaker.core.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Redis can answer and still refuse a write: a primary demoted by a failover
 * ({@code READONLY}), a Cluster without a primary for a slot ({@code CLUSTERDOWN}), full
 * memory ({@code OOM}). The store stays up (Redis answered), but a trip it refused is not
 * lost: it is sent again, further apart each time, and reaches the fleet once Redis takes
 * writes again, without a reconnect.
 */
@ExtendWith(OutputCaptureExtension.class)
class FleetRefusedWritesTests {

	private static final String REFUSED = "Redis refused to record the trip of breaker 'payments'";

	/**
	 * Redis answers throughout, so the periodic ping gets 500 ms
	 * ({@link Replicas#PATIENT_PING}): with the harness's 100 ms a loaded machine missed
	 * pings, each return of the store re-read the fleet and told the trip again, and
	 * those refusals came on top of the resends counted here.
	 */
	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis()
		.properties("breaker.shared.redis.quorum=1", Replicas.PATIENT_PING);

	@Test
	void aTripRedisRefusedWhileStillAnsweringReachesTheFleetOnceRedisTakesWritesAgain(CapturedOutput output) {
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		b.breaker("payments");
		// a primary demoted by a failover answers every write with READONLY
		replicas.admin().redis().replicaof("127.0.0.1", 1);
		replicas.admin().redis().configResetstat();

		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> output.getOut().contains(REFUSED));
		long refusedAt = System.nanoTime();
		assertThat(a.status().up()).as("Redis answered: not an outage").isTrue();
		// Redis refuses for 8 s: the trip is sent again 1 s, 2, then 4 s apart (the
		// reconnect interval, doubled up to 8 times it): 4 refusals, 8 or 9 if it were
		// sent again every interval
		await().pollDelay(Duration.ofSeconds(8)).until(() -> true);
		long refusals = refusedScripts();
		assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);

		replicas.admin().redis().replicaofNoOne();
		// the next resend is due 15 s after the first refusal (8 s after the one at 7 s)
		await().atMost(Duration.ofSeconds(12)).until(() -> b.breaker("payments").state() == State.OPEN);
		assertThat(Duration.ofNanos(System.nanoTime() - refusedAt)).isGreaterThan(Duration.ofSeconds(8));
		assertThat(refusals).as("trips Redis refused in 8 s, sent further apart each time").isBetween(3L, 5L);
		assertThat(output.getOut().split(REFUSED, -1)).as("the refusal is logged once").hasSize(2);
	}

	/**
	 * The scripts Redis refused since its statistics were reset (only trips run one
	 * here).
	 */
	private long refusedScripts() {
		Matcher evalsha = Pattern.compile("cmdstat_evalsha:.*failed_calls=(\\d+)")
			.matcher(replicas.admin().redis().info("commandstats"));
		return evalsha.find() ? Long.parseLong(evalsha.group(1)) : 0;
	}

}
