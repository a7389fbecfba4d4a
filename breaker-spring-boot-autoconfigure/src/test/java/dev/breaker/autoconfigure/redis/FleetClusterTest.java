package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTest.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
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

/**
 * Fleet mode on a real three-primary Redis Cluster ({@code spring.data.redis.cluster.nodes}), reached as the README's
 * ACL user: every script's keys in one slot, announcements reaching every replica whichever node it listens on, the
 * reconnect read finding open circuits on every primary, the fleet window batching per slot. The cluster is started
 * once for the class; each test has breakers of its own.
 */
class FleetClusterTest {

    private static final FleetKeys KEYS = new FleetKeys("breaker:");

    private static RedisClusterSet cluster;

    private final List<Replica> replicas = new ArrayList<>();

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterSet.start(3, 0, "user checkout " + FleetAcl.RULES);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void stopReplicas() {
        replicas.forEach(Replica::close);
        assertThat(cluster.onEveryNode(FleetAcl::deniedSoFar)).as("what the ACL refused, node by node").allSatisfy(
                denied -> assertThat(denied).isEmpty());
    }

    @Test
    void tripsAndClosesOfBreakersOnEveryPrimaryReachEveryReplicaWhicheverNodeItListensOn() {
        List<String> names = onePerPrimary("shared");
        List<List<String>> heardOnNode = listenOnEveryNode();
        Replica a = replica("a");
        Replica b = replica("b");
        Replica c = replica("c");
        names.forEach(c::breaker);

        for (String name : names) {
            failTimes(a.breaker(name), 3);
            failTimes(b.breaker(name), 3);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> names.stream().allMatch(n -> c.breaker(n).state() == State.OPEN));
        names.forEach(n -> a.breaker(n).reset());
        await().atMost(Duration.ofSeconds(5)).until(() -> names.stream()
                .allMatch(n -> c.breaker(n).state() == State.CLOSED && b.breaker(n).state() == State.CLOSED));
        // what each primary published reached subscribers on every node, the publishing node or not
        assertThat(heardOnNode).allSatisfy(heard -> assertThat(heard).hasSizeGreaterThanOrEqualTo(2 * names.size()));
        assertThat(List.of(a, b, c)).allSatisfy(r -> {
            assertThat(r.status().up()).isTrue();
            assertThat(r.status().errors()).as("commands that failed (CROSSSLOT, MOVED, NOPERM…)").isZero();
        });
    }

    @Test
    void aReplicaStartedLaterStartsWithTheOpenCircuitsAndOverridesOfEveryPrimary() throws Exception {
        List<String> names = onePerPrimary("standing");
        Replica a = replica("a", "breaker.shared.redis.quorum=1");
        names.forEach(n -> failTimes(a.breaker(n), 3));
        String overridden = onePerPrimary("overridden").get(2);
        a.sync().override(a.breaker(overridden), State.FORCED_OPEN, true);
        await().atMost(Duration.ofSeconds(3)).until(() -> names.stream()
                .allMatch(n -> cluster.admin(cluster.primaries().get(cluster.primaryIndexOf(KEYS.state(n))).port())
                        .exists(KEYS.state(n)) == 1));

        Replica late = replica("late");

        assertThat(late.status().lastSync()).as("the first read of the fleet's state, done at start-up").isNotNull();
        assertThat(names).allSatisfy(n -> assertThat(late.breaker(n).state()).as(n).isEqualTo(State.OPEN));
        assertThat(late.breaker(overridden).state()).isEqualTo(State.FORCED_OPEN);
    }

    @Test
    void theFleetWindowTripsBreakersOfEveryPrimary() {
        BreakerConfig config = BreakerConfig.builder().consecutiveFailures(0).failureRateThreshold(50).minimumCalls(10)
                .openWait(Duration.ofSeconds(5)).openWaitJitter(0).ticker(Ticker.system()).build();
        List<String> names = onePerPrimary("window");
        List<Replica> fleet = List.of(
                replica("a", config, "breaker.shared.redis.fleet-window=true", "breaker.shared.redis.flush-interval=200ms"),
                replica("b", config, "breaker.shared.redis.fleet-window=true", "breaker.shared.redis.flush-interval=200ms"),
                replica("c", config, "breaker.shared.redis.fleet-window=true", "breaker.shared.redis.flush-interval=200ms"));

        // 4 failures each: under minimum-calls 10 on every replica, 12 over the fleet
        fleet.forEach(r -> names.forEach(n -> failTimes(r.breaker(n), 4)));

        await().atMost(Duration.ofSeconds(5)).until(() -> fleet.stream()
                .allMatch(r -> names.stream().allMatch(n -> r.breaker(n).state() == State.OPEN)));
        assertThat(fleet).allSatisfy(r -> assertThat(r.status().errors()).as("commands that failed").isZero());
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

    /** A subscriber on each node of the cluster, straight to it: what it hears on the fleet's channel. */
    private List<List<String>> listenOnEveryNode() {
        List<List<String>> heard = new ArrayList<>();
        for (RedisClusterSet.Node node : cluster.all()) {
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

    private Replica replica(String id, String... properties) {
        return replica(id, FleetQuorumTest.config(Duration.ofSeconds(30)), properties);
    }

    private Replica replica(String id, BreakerConfig config, String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.data.redis.cluster.nodes=" + cluster.primaries().get(0).process().address(),
                "spring.data.redis.username=checkout", "spring.data.redis.password=" + FleetAcl.PASSWORD));
        all.addAll(List.of(properties));
        Replica replica = Replica.start(id, config, all.toArray(String[]::new));
        replicas.add(replica);
        return replica;
    }
}
