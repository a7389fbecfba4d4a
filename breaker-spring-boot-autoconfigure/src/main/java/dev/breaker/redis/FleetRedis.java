package dev.breaker.redis;

import java.util.List;
import java.util.Objects;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;

/**
 * The Redis a fleet shares through: one server, the primary that Sentinel names, or a
 * Redis Cluster; credentials and TLS travel in the URIs, certificates and trust in the
 * {@link SslOptions}.
 *
 * @param topology how the servers are arranged
 * @param uris the server (standalone), the one URI naming the Sentinels and the primary's
 * name (Sentinel), or the nodes to discover the Cluster from (Cluster)
 * @param ssl key and trust material for TLS, {@code null} for the JVM's defaults (or no
 * TLS)
 */
public record FleetRedis(Topology topology, List<RedisURI> uris, SslOptions ssl) {

	/** How the servers are arranged. */
	public enum Topology {

		/** One server. */
		STANDALONE,
		/**
		 * A primary and its replicas, the primary found (and, after a failover, found
		 * again) through Sentinel.
		 */
		SENTINEL,
		/**
		 * A Redis Cluster: keys spread over hash slots, each slot served by one primary.
		 */
		CLUSTER

	}

	public FleetRedis {
		Objects.requireNonNull(topology, "topology");
		uris = List.copyOf(uris);
		if (uris.isEmpty()) {
			throw new IllegalArgumentException("at least one Redis URI is needed");
		}
		if (topology != Topology.CLUSTER && uris.size() != 1) {
			throw new IllegalArgumentException(topology + " takes exactly one Redis URI but got " + uris.size());
		}
	}

	/** One server, or the primary Sentinel names when the URI lists Sentinels. */
	public static FleetRedis of(RedisURI uri) {
		return new FleetRedis(uri.getSentinels().isEmpty() ? Topology.STANDALONE : Topology.SENTINEL, List.of(uri),
				null);
	}

	/** A Redis Cluster, discovered from any of {@code nodes}. */
	public static FleetRedis cluster(List<RedisURI> nodes) {
		return new FleetRedis(Topology.CLUSTER, nodes, null);
	}

	/** The same Redis, reached with this TLS key and trust material. */
	public FleetRedis withSsl(SslOptions options) {
		return new FleetRedis(topology, uris, options);
	}

	@Override
	public String toString() {
		// RedisURI#toString never prints a password
		return "FleetRedis[" + topology + " " + uris + (ssl == null ? "" : ", ssl options") + "]";
	}
}
