package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.State;
import dev.breaker.redis.FleetAcl;
import dev.breaker.redis.FleetKeys;
import dev.breaker.redis.RedisClusterSet;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fleet mode on a real Redis Cluster of three primaries with a replica each
 * ({@code spring.data.redis.cluster.nodes}), reached as the production ACL user of
 * docs/fleet-mode.md: every script's keys in one slot, announcements reaching every
 * replica whichever node it listens on, the reconnect read finding open circuits on every
 * primary, the fleet window batching per slot, and a primary killed under load. The
 * cluster is started once for the class; each test has breakers of its own, and finds its
 * nodes by slot, so the tests pass in any order, before or after the failover.
 */
class FleetClusterTests {

	private static final FleetKeys KEYS = new FleetKeys("breaker:");

	/**
	 * A call that waited on Redis would have waited for the command timeout, at least.
	 */
	private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

	private static RedisClusterSet cluster;

	@RegisterExtension
	final Replicas replicas = Replicas.at(() -> List.of("spring.data.redis.cluster.nodes=" + cluster.nodes(),
			"spring.data.redis.username=checkout", "spring.data.redis.password=" + FleetAcl.PASSWORD));

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterSet.start(3, 1, "user checkout " + FleetAcl.RULES);
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@AfterEach
	void stopReplicas() {
		replicas.close();
		assertThat(cluster.onEveryNode(FleetAcl::deniedSoFar)).as("what the ACL refused, node by node")
			.allSatisfy(denied -> assertThat(denied).isEmpty());
	}

	@Test
	void tripsAndClosesOfBreakersOnEveryPrimaryReachEveryReplicaWhicheverNodeItListensOn() {
		replicas.properties(Replicas.PATIENT_PING);
		List<String> names = onePerPrimary("shared");
		List<List<String>> heardOnNode = listenOnEveryNode();
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		Replica c = replicas.start("c");
		names.forEach(c::breaker);

		for (String name : names) {
			failTimes(a.breaker(name), 3);
			failTimes(b.breaker(name), 3);
		}

		await().atMost(Duration.ofSeconds(5))
			.until(() -> names.stream().allMatch(n -> c.breaker(n).state() == State.OPEN));
		names.forEach(n -> a.breaker(n).reset());
		await().atMost(Duration.ofSeconds(5))
			.until(() -> names.stream()
				.allMatch(n -> c.breaker(n).state() == State.CLOSED && b.breaker(n).state() == State.CLOSED));
		// what each primary published reached subscribers on every node, the publishing
		// node or not
		assertThat(heardOnNode).allSatisfy(heard -> assertThat(heard).hasSizeGreaterThanOrEqualTo(2 * names.size()));
		assertThat(List.of(a, b, c)).allSatisfy(r -> {
			assertThat(r.status().up()).isTrue();
			assertThat(r.status().errors()).as("commands that failed (CROSSSLOT, MOVED, NOPERM…)").isZero();
		});
	}

	@Test
	void aReplicaStartedLaterStartsWithTheOpenCircuitsAndOverridesOfEveryPrimary() throws Exception {
		List<String> names = onePerPrimary("standing");
		Replica a = replicas.start("a", "breaker.shared.redis.quorum=1");
		names.forEach(n -> failTimes(a.breaker(n), 3));
		String overridden = onePerPrimary("overridden").get(2);
		a.sync().override(a.breaker(overridden), State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(3))
			.until(() -> names.stream().allMatch(n -> cluster.adminOf(KEYS.state(n)).exists(KEYS.state(n)) == 1));

		Replica late = replicas.start("late");

		assertThat(late.status().lastSync()).as("the first read of the fleet's state, done at start-up").isNotNull();
		assertThat(names).allSatisfy(n -> assertThat(late.breaker(n).state()).as(n).isEqualTo(State.OPEN));
		assertThat(late.breaker(overridden).state()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void theFleetWindowTripsBreakersOfEveryPrimary() {
		replicas.properties(Replicas.PATIENT_PING);
		BreakerConfig config = Replicas.failureRateOnly();
		List<String> names = onePerPrimary("window");
		List<Replica> fleet = List.of(
				replicas.start("a", config, "breaker.shared.redis.fleet-window=true",
						"breaker.shared.redis.flush-interval=200ms"),
				replicas.start("b", config, "breaker.shared.redis.fleet-window=true",
						"breaker.shared.redis.flush-interval=200ms"),
				replicas.start("c", config, "breaker.shared.redis.fleet-window=true",
						"breaker.shared.redis.flush-interval=200ms"));

		// 4 failures each: under minimum-calls 10 on every replica, 12 over the fleet
		fleet.forEach(r -> names.forEach(n -> failTimes(r.breaker(n), 4)));

		await().atMost(Duration.ofSeconds(5))
			.until(() -> fleet.stream()
				.allMatch(r -> names.stream().allMatch(n -> r.breaker(n).state() == State.OPEN)));
		assertThat(fleet).allSatisfy(r -> assertThat(r.status().errors()).as("commands that failed").isZero());
	}

	@Test
	void aKilledPrimaryCostsNoCallAndSharingResumesWithinTenSecondsOfThePromotion() throws Exception {
		String timeout = "breaker.shared.redis.timeout=" + REDIS_TIMEOUT.toMillis() + "ms";
		Replica a = replicas.start("a", timeout);
		Replica b = replicas.start("b", timeout);
		Replica c = replicas.start("c", timeout);
		List<Replica> fleet = List.of(a, b, c);
		String before = onPrimary(0, "before", 0);
		c.breaker(before);
		failTimes(a.breaker(before), 3);
		failTimes(b.breaker(before), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> c.breaker(before).state() == State.OPEN);
		Failover.costsNoCallAndSharingResumesWithinTenSecondsOfThePromotion("Cluster", fleet, () -> {
			RedisClusterSet.Node killed = cluster.killPrimaryOf(KEYS.state(before));
			return cluster.awaitPromotion(KEYS.state(before), killed, Duration.ofSeconds(30));
		}, round -> onPrimary(0, "after", round), Duration.ofSeconds(3), REDIS_TIMEOUT);
		// a breaker on another primary shares as before
		String elsewhere = onPrimary(1, "elsewhere", 0);
		c.breaker(elsewhere);
		failTimes(a.breaker(elsewhere), 3);
		failTimes(b.breaker(elsewhere), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> c.breaker(elsewhere).state() == State.OPEN);
	}

	/**
	 * The {@code nth} breaker name (with that prefix) whose keys lived on primary
	 * {@code index} when the cluster was built.
	 */
	private String onPrimary(int index, String prefix, int nth) {
		for (int i = 0, seen = 0;; i++) {
			String name = prefix + "-" + i;
			if (cluster.primaryIndexOf(KEYS.state(name)) == index && seen++ == nth) {
				return name;
			}
		}
	}

	/** Breaker names whose keys live on primary 0, 1 and 2, in that order. */
	static List<String> onePerPrimary(String prefix) {
		String[] found = new String[cluster.primaries().size()];
		for (int i = 0, left = found.length; left > 0; i++) {
			String name = prefix + "-" + i;
			int primary = cluster.primaryIndexOf(KEYS.state(name));
			if (found[primary] == null) {
				found[primary] = name;
				left--;
			}
		}
		return List.of(found);
	}

	/**
	 * A subscriber on each node of the cluster, straight to it: what it hears on the
	 * fleet's channel.
	 */
	private List<List<String>> listenOnEveryNode() {
		List<List<String>> heard = new ArrayList<>();
		for (RedisClusterSet.Node node : cluster.all()) {
			if (!node.process().running()) {
				continue;
			}
			List<String> messages = new CopyOnWriteArrayList<>();
			RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", node.port()));
			StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub();
			pubSub.addListener(new RedisPubSubAdapter<>() {
				@Override
				public void message(String channel, String message) {
					messages.add(message);
				}
			});
			pubSub.sync().subscribe("breaker:transitions");
			closeAfter(client);
			heard.add(messages);
		}
		return heard;
	}

	private final List<RedisClient> listeners = new ArrayList<>();

	private void closeAfter(RedisClient client) {
		listeners.add(client);
	}

	@AfterEach
	void stopListeners() {
		listeners.forEach(RedisClient::shutdown);
	}

}
