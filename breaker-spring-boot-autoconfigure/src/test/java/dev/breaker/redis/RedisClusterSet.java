package dev.breaker.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

/**
 * A real Redis Cluster on loopback: {@code n} primaries (the 16,384 slots split evenly),
 * optionally a replica each, built with the cluster commands
 * {@code redis-cli --cluster create} sends (slots, config epochs, MEET, REPLICATE). A
 * node is declared failed after 1 s without an answer, and any replica may take over its
 * primary.
 */
public final class RedisClusterSet implements AutoCloseable {

	/** One node: its process, its cluster bus port and its cluster node id. */
	public record Node(RedisProcess process, int busPort, String id) {

		public int port() {
			return process.port();
		}
	}

	private final Path dir;

	private final List<Node> primaries = new ArrayList<>();

	private final List<Node> replicas = new ArrayList<>();

	private final Map<Integer, StatefulRedisConnection<String, String>> admins = new ConcurrentHashMap<>();

	private final List<RedisClient> clients = new ArrayList<>();

	private RedisClusterSet(Path dir) {
		this.dir = dir;
	}

	/**
	 * Starts the nodes, joins them and waits until every node sees the whole cluster ok.
	 */
	public static RedisClusterSet start(int primaries, int replicasPerPrimary, String... nodeConfig) {
		RedisClusterSet set;
		try {
			set = new RedisClusterSet(Files.createTempDirectory("breaker-cluster"));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		try {
			set.create(primaries, replicasPerPrimary, nodeConfig);
			return set;
		}
		catch (RuntimeException e) {
			set.close();
			throw e;
		}
	}

	private void create(int primaryCount, int replicasPerPrimary, String... nodeConfig) {
		for (int i = 0; i < primaryCount; i++) {
			primaries.add(node("primary-" + i, nodeConfig));
		}
		for (int i = 0; i < primaryCount * replicasPerPrimary; i++) {
			replicas.add(node("replica-" + i, nodeConfig));
		}
		for (int i = 0; i < primaryCount; i++) {
			RedisCommands<String, String> node = admin(primaries.get(i).port());
			int from = i * SlotHash.SLOT_COUNT / primaryCount;
			int to = (i + 1) * SlotHash.SLOT_COUNT / primaryCount - 1;
			node.clusterAddSlotsRange(Range.create(from, to));
			node.clusterSetConfigEpoch(i + 1);
		}
		RedisCommands<String, String> first = admin(primaries.get(0).port());
		for (Node node : all()) {
			if (node != primaries.get(0)) {
				first.dispatch(CommandType.CLUSTER, new StatusOutput<>(StringCodec.UTF8),
						new CommandArgs<>(StringCodec.UTF8).add("MEET")
							.add("127.0.0.1")
							.add(node.port())
							.add(node.busPort()));
			}
		}
		awaitEveryNode(
				view -> view.contains("cluster_state:ok") && view.contains("cluster_known_nodes:" + all().size()),
				"know every node and see the cluster ok");
		for (int i = 0; i < replicas.size(); i++) {
			Node primary = primaries.get(i % primaryCount);
			admin(replicas.get(i).port()).clusterReplicate(primary.id());
		}
		for (Node replica : replicas) {
			await(() -> admin(replica.port()).info("replication").contains("master_link_status:up"), "replica in sync");
		}
		awaitEveryNode(view -> view.contains("cluster_state:ok") && slaves(view) == replicas.size(),
				"see every replica");
	}

	private Node node(String name, String... nodeConfig) {
		int bus = RedisProcess.freePort();
		List<String> config = new ArrayList<>(
				List.of("cluster-enabled yes", "cluster-config-file nodes.conf", "cluster-node-timeout 1000",
						// a replica syncs at once, not after the default 5 s
						"cluster-port " + bus, "cluster-replica-validity-factor 0", "repl-diskless-sync-delay 0"));
		config.addAll(List.of(nodeConfig));
		RedisProcess process = RedisProcess.server(dir.resolve(name), config.toArray(String[]::new));
		return new Node(process, bus, admin(process.port()).clusterMyId());
	}

	/**
	 * {@code host:port,…} of every node that runs, for
	 * {@code spring.data.redis.cluster.nodes}.
	 */
	public String nodes() {
		return all().stream()
			.filter(n -> n.process().running())
			.map(n -> n.process().address())
			.collect(Collectors.joining(","));
	}

	/** An admin connection to the primary that serves {@code key}'s slot now. */
	public RedisCommands<String, String> adminOf(String key) {
		Node asked = all().stream().filter(n -> n.process().running()).findFirst().orElseThrow();
		String owner = ownerOf(SlotHash.getSlot(key), asked);
		return admin(all().stream().filter(n -> n.id().equals(owner)).findFirst().orElseThrow().port());
	}

	public List<Node> primaries() {
		return primaries;
	}

	public List<Node> all() {
		List<Node> all = new ArrayList<>(primaries);
		all.addAll(replicas);
		return all;
	}

	/**
	 * The index (in {@link #primaries()}) of the primary that served {@code key}'s slot
	 * when the cluster was built (after a failover, its replica serves that slot range).
	 */
	public int primaryIndexOf(String key) {
		return SlotHash.getSlot(key) * primaries.size() / SlotHash.SLOT_COUNT;
	}

	/**
	 * An admin connection (the default user) to one node, kept open until the node is
	 * killed or the set closed.
	 */
	public RedisCommands<String, String> admin(int port) {
		return admins.computeIfAbsent(port, p -> {
			RedisClient client = RedisClient.create(
					RedisURI.builder().withHost("127.0.0.1").withPort(p).withTimeout(Duration.ofSeconds(2)).build());
			synchronized (clients) {
				clients.add(client);
			}
			return client.connect();
		}).sync();
	}

	/** Runs {@code work} on every node that is running. */
	public <T> List<T> onEveryNode(Function<RedisCommands<String, String>, T> work) {
		List<T> results = new ArrayList<>();
		for (Node node : all()) {
			if (node.process().running()) {
				results.add(work.apply(admin(node.port())));
			}
		}
		return results;
	}

	/** Crashes the primary of {@code key}'s slot now (SIGKILL); returns it. */
	public Node killPrimaryOf(String key) {
		int slot = SlotHash.getSlot(key);
		Node asked = all().stream().filter(n -> n.process().running()).findFirst().orElseThrow();
		String owner = ownerOf(slot, asked);
		Node primary = all().stream().filter(n -> n.id().equals(owner)).findFirst().orElseThrow();
		StatefulRedisConnection<String, String> admin = admins.remove(primary.port());
		if (admin != null) {
			admin.closeAsync();
		}
		primary.process().kill();
		return primary;
	}

	/**
	 * Waits until another node than {@code old} serves {@code key}'s slot and the cluster
	 * is ok; returns System.nanoTime() then.
	 */
	public long awaitPromotion(String key, Node old, Duration timeout) {
		int slot = SlotHash.getSlot(key);
		Node survivor = all().stream().filter(n -> n != old && n.process().running()).findFirst().orElseThrow();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				String owner = ownerOf(slot, survivor);
				if (!owner.equals(old.id()) && admin(survivor.port()).clusterInfo().contains("cluster_state:ok")) {
					return System.nanoTime();
				}
			}
			catch (RuntimeException busy) {
				// ask again
			}
			RedisProcess.pause(20);
		}
		throw new IllegalStateException("no replica took over slot " + slot + " within " + timeout);
	}

	/** The id of the node serving {@code slot}, as {@code asked} sees the cluster. */
	private String ownerOf(int slot, Node asked) {
		for (String line : admin(asked.port()).clusterNodes().split("\n")) {
			String[] fields = line.trim().split(" ");
			if (fields.length < 9 || !fields[2].contains("master") || fields[2].contains("fail")) {
				continue;
			}
			for (int i = 8; i < fields.length; i++) {
				String[] range = fields[i].split("-");
				if (range[0].startsWith("[")) {
					continue; // a slot being migrated
				}
				int from = Integer.parseInt(range[0]);
				int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
				if (slot >= from && slot <= to) {
					return fields[0];
				}
			}
		}
		throw new IllegalStateException("no node serves slot " + slot);
	}

	private static int slaves(String clusterNodes) {
		return (int) clusterNodes.lines()
			.filter(line -> line.split(" ").length > 2 && line.split(" ")[2].contains("slave"))
			.count();
	}

	private void awaitEveryNode(java.util.function.Predicate<String> ok, String what) {
		await(() -> all().stream().allMatch(node -> {
			RedisCommands<String, String> admin = admin(node.port());
			return ok.test(admin.clusterInfo() + "\n" + admin.clusterNodes());
		}), what);
	}

	private void await(java.util.function.BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			try {
				if (condition.getAsBoolean()) {
					return;
				}
			}
			catch (RuntimeException notYet) {
				// ask again
			}
			RedisProcess.pause(50);
		}
		throw new IllegalStateException(
				"the cluster's nodes did not " + what + " within 30 s; see the logs under " + dir);
	}

	@Override
	public void close() {
		admins.values().forEach(StatefulRedisConnection::closeAsync);
		synchronized (clients) {
			clients.forEach(c -> c.shutdown(Duration.ZERO, Duration.ofSeconds(1)));
		}
		all().forEach(n -> n.process().close());
	}

}
