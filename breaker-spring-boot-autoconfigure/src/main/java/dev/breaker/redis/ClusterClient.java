package dev.breaker.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.breaker.redis.FleetScripts.Script;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;

/**
 * A Redis Cluster. Scripts go to the primary of their keys' slot (every script of one
 * breaker touches one slot); the subscription lives on one node, and hears every node's
 * announcements, because a plain {@code PUBLISH} in a Cluster reaches every node. The
 * ping asks every primary, so the store is up only while every slot can be reached; when
 * a primary does not answer, the topology is read again (at most once a reconnect
 * interval), so a promoted replica is found within about a reconnect interval of its
 * promotion.
 */
final class ClusterClient implements StoreClient {

	/**
	 * A slow safety net under the adaptive refreshes, for changes no command noticed (a
	 * primary added).
	 */
	private static final Duration PERIODIC_REFRESH = Duration.ofSeconds(60);

	private final RedisClusterClient client;

	private final Duration timeout;

	private final long refreshEveryNanos;

	private final AtomicLong lastRefresh = new AtomicLong();

	ClusterClient(FleetRedis redis, ClientResources resources, Duration timeout, Duration reconnectInterval) {
		this.client = RedisClusterClient.create(resources, redis.uris());
		this.timeout = timeout;
		this.refreshEveryNanos = reconnectInterval.toNanos();
		this.lastRefresh.set(System.nanoTime() - refreshEveryNanos);
		ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
			.enableAllAdaptiveRefreshTriggers()
			.adaptiveRefreshTriggersTimeout(reconnectInterval)
			.refreshTriggersReconnectAttempts(3)
			.enablePeriodicRefresh(PERIODIC_REFRESH)
			.build();
		this.client.setOptions(StoreClient.options(ClusterClientOptions.builder(), redis, timeout)
			.topologyRefreshOptions(refresh)
			.build());
	}

	@Override
	public Commands connect() {
		StatefulRedisClusterConnection<String, String> connection = client.connect(StringCodec.UTF8);
		for (Script script : FleetScripts.ALL) {
			try {
				// on every node; one down now gets the body with its first NOSCRIPT
				connection.async()
					.scriptLoad(script.body())
					.toCompletableFuture()
					.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (Exception bestEffort) {
				if (bestEffort instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
			}
		}
		return new Commands(connection, connection.async());
	}

	@Override
	public CompletableFuture<List<String>> time(Commands commands) {
		StatefulRedisClusterConnection<String, String> connection = cluster(commands);
		RedisClusterNode clockNode = connection.getPartitions().getPartitionBySlot(0);
		return onEveryPrimary(connection, node -> node.async().time().toCompletableFuture()).thenApply(replies -> {
			List<String> time = clockNode == null ? null : replies.get(clockNode.getNodeId());
			return time != null ? time : replies.values().iterator().next();
		});
	}

	@Override
	public CompletableFuture<String> serverId(Commands commands) {
		return onEveryPrimary(cluster(commands), node -> node.async().info("server").toCompletableFuture())
			.thenApply(infos -> {
				StringBuilder id = new StringBuilder();
				infos.forEach((node, info) -> id.append(node).append('=').append(ServerClient.runId(info)).append(','));
				return id.toString();
			});
	}

	/**
	 * One SCAN step on one primary: the walk goes through every primary that served slots
	 * when it began (a failed primary that no longer serves any is left out), one page at
	 * a time.
	 */
	@Override
	public CompletableFuture<KeyScanCursor<String>> scan(Commands commands, ScanCursor cursor, KeyScanArgs args) {
		StatefulRedisClusterConnection<String, String> connection = cluster(commands);
		List<String> nodes;
		int index;
		ScanCursor onNode;
		if (cursor instanceof PrimaryPage page) {
			nodes = page.nodes;
			index = page.nodeDone ? page.index + 1 : page.index;
			onNode = page.nodeDone ? ScanCursor.INITIAL : ScanCursor.of(page.getCursor());
		}
		else {
			nodes = primaries(connection).stream().map(RedisClusterNode::getNodeId).sorted().toList();
			index = 0;
			onNode = ScanCursor.INITIAL;
			if (nodes.isEmpty()) {
				refresh();
				return CompletableFuture.failedFuture(new IllegalStateException("no primary of the Cluster is known"));
			}
		}
		return connection.getConnectionAsync(nodes.get(index))
			.thenCompose(node -> node.async().scan(onNode, args).toCompletableFuture())
			.thenApply(page -> {
				PrimaryPage next = new PrimaryPage(nodes, index, page.isFinished());
				next.getKeys().addAll(page.getKeys());
				next.setCursor(page.isFinished() ? "0" : page.getCursor());
				next.setFinished(page.isFinished() && index + 1 == nodes.size());
				return next;
			});
	}

	/**
	 * Where a walk over the primaries is: which primaries, the one it is on, and whether
	 * that one is done.
	 */
	private static final class PrimaryPage extends KeyScanCursor<String> {

		final List<String> nodes;

		final int index;

		final boolean nodeDone;

		PrimaryPage(List<String> nodes, int index, boolean nodeDone) {
			this.nodes = nodes;
			this.index = index;
			this.nodeDone = nodeDone;
		}

	}

	/**
	 * The primaries that serve slots (a failed primary whose slots a replica took over
	 * serves none).
	 */
	private static List<RedisClusterNode> primaries(StatefulRedisClusterConnection<String, String> connection) {
		List<RedisClusterNode> primaries = new ArrayList<>();
		for (RedisClusterNode node : connection.getPartitions()) {
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
				primaries.add(node);
			}
		}
		return primaries;
	}

	/**
	 * The replies of every primary that serves slots, by node id; fails when one does not
	 * answer (and reads the topology again).
	 */
	private <T> CompletableFuture<Map<String, T>> onEveryPrimary(
			StatefulRedisClusterConnection<String, String> connection,
			Function<StatefulRedisConnection<String, String>, CompletableFuture<T>> command) {
		List<RedisClusterNode> primaries = primaries(connection);
		if (primaries.isEmpty()) {
			refresh();
			return CompletableFuture.failedFuture(new IllegalStateException("no primary of the Cluster is known"));
		}
		Map<String, CompletableFuture<T>> replies = new TreeMap<>();
		for (RedisClusterNode primary : primaries) {
			replies.put(primary.getNodeId(), connection.getConnectionAsync(primary.getNodeId()).thenCompose(command));
		}
		return CompletableFuture.allOf(replies.values().toArray(CompletableFuture[]::new)).handle((done, error) -> {
			if (error != null) {
				refresh();
				throw RedisBreakerStore.rethrow(error);
			}
			Map<String, T> answered = new TreeMap<>();
			replies.forEach((node, reply) -> answered.put(node, reply.join()));
			return answered;
		});
	}

	/**
	 * Reads the topology again, at most once a reconnect interval: a primary that does
	 * not answer may have been replaced.
	 */
	private void refresh() {
		long last = lastRefresh.get();
		long now = System.nanoTime();
		if (now - last >= refreshEveryNanos && lastRefresh.compareAndSet(last, now)) {
			client.refreshPartitionsAsync();
		}
	}

	private static StatefulRedisClusterConnection<String, String> cluster(Commands commands) {
		return (StatefulRedisClusterConnection<String, String>) commands.connection();
	}

	@Override
	public RedisClusterClient lettuce() {
		return client;
	}

}
