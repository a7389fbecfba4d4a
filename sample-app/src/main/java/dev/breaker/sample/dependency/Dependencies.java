package dev.breaker.sample.dependency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import dev.breaker.sample.dependency.DependencyProperties.Dependency;
import dev.breaker.sample.dependency.DependencyServer.Answer;

import org.springframework.beans.factory.DisposableBean;

/**
 * The dependency servers the app starts beside itself, by name: {@code payments} and
 * {@code recommendations}.
 */
public final class Dependencies implements DisposableBean {

	public static final String PAYMENTS = "payments";

	public static final String RECOMMENDATIONS = "recommendations";

	private final Map<String, DependencyServer> servers = new LinkedHashMap<>();

	private final Map<String, Dependency> settings = new LinkedHashMap<>();

	public Dependencies(DependencyProperties properties) {
		try {
			start(PAYMENTS, properties.getPayments(), new ChargesEndpoint());
			start(RECOMMENDATIONS, properties.getRecommendations(), Dependencies::recommend);
		}
		catch (IOException ex) {
			destroy();
			throw new UncheckedIOException("could not start the sample's dependency servers", ex);
		}
	}

	private void start(String name, Dependency dependency, DependencyServer.Endpoint endpoint) throws IOException {
		Chaos healthy = Chaos.healthy(dependency.getSlowLatency(), dependency.getFailurePercent());
		this.servers.put(name, DependencyServer.start(name, dependency.getThreads(), dependency.getLatency(),
				dependency.getMaxWedge(), healthy, endpoint));
		this.settings.put(name, dependency);
	}

	public DependencyServer payments() {
		return this.servers.get(PAYMENTS);
	}

	public DependencyServer recommendations() {
		return this.servers.get(RECOMMENDATIONS);
	}

	public Optional<DependencyServer> find(String name) {
		return Optional.ofNullable(this.servers.get(name));
	}

	public Collection<DependencyServer> all() {
		return this.servers.values();
	}

	/** The configured settings of a dependency, for the chaos defaults. */
	public Dependency settings(String name) {
		return this.settings.get(name);
	}

	@Override
	public void destroy() {
		this.servers.values().forEach(DependencyServer::close);
	}

	/** The gateway: {@code POST /charges} captures a charge. */
	private static final class ChargesEndpoint implements DependencyServer.Endpoint {

		private final AtomicLong charges = new AtomicLong();

		@Override
		public Answer answer(String method, String path, String body) {
			if (!"POST".equals(method) || !"/charges".equals(path)) {
				return new Answer(404, "{\"error\":\"no such endpoint\"}");
			}
			return Answer.ok("{\"chargeId\":\"ch_" + this.charges.incrementAndGet() + "\",\"status\":\"CAPTURED\"}");
		}

	}

	/**
	 * The recommendation service: {@code GET /recommendations/{userId}} lists products
	 * for a user.
	 */
	private static Answer recommend(String method, String path, String body) {
		String prefix = "/recommendations/";
		if (!"GET".equals(method) || !path.startsWith(prefix) || path.length() == prefix.length()) {
			return new Answer(404, "{\"error\":\"no such endpoint\"}");
		}
		String userId = path.substring(prefix.length());
		int seed = Math.floorMod(userId.hashCode(), 97);
		StringBuilder json = new StringBuilder("{\"products\":[");
		for (int i = 0; i < 3; i++) {
			json.append(i == 0 ? "" : ",").append("\"sku-").append(1 + (seed + i * 5) % 24).append('"');
		}
		return Answer.ok(json.append("]}").toString());
	}

}
