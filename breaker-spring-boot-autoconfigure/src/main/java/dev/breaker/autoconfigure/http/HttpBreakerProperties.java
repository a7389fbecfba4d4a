package dev.breaker.autoconfigure.http;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.breaker.autoconfigure.BreakerProperties;
import dev.breaker.core.Outcome;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the per-host breakers of Spring's HTTP clients.
 */
@ConfigurationProperties("breaker.http")
public class HttpBreakerProperties {

	/**
	 * Whether RestClient, RestTemplate and WebClient built from Spring Boot's builders guard
	 * every request with the breaker of its host.
	 */
	private boolean enabled = true;

	/**
	 * Most hosts with a breaker at once; beyond it the breaker of the host used least
	 * recently is dropped.
	 */
	private int maxHosts = 1000;

	/**
	 * How long the breaker of a host that gets no requests is kept.
	 */
	private Duration idleExpiry = Duration.ofMinutes(10);

	/**
	 * Host keys longer than this are shortened to a prefix, a tilde and a 16-digit hash of the
	 * whole key (the same on every replica). In [32, 1024].
	 */
	private int maxKeyLength = 128;

	/**
	 * Responses of every host judged otherwise than by the default rules, by status, e.g.
	 * 404: success. Outcomes: success, failure, timeout, ignored, throttled.
	 */
	private Map<Integer, Outcome> statusOutcomes = new LinkedHashMap<>();

	/**
	 * Per-host settings, keyed by host, or host:port off the scheme's default port, the way
	 * the breaker is named (http:host). Keys with dots need brackets in properties:
	 * breaker.http.instances[api.acme.com].open-wait=10s.
	 */
	private Map<String, Host> instances = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxHosts() {
		return this.maxHosts;
	}

	public void setMaxHosts(int maxHosts) {
		this.maxHosts = maxHosts;
	}

	public Duration getIdleExpiry() {
		return this.idleExpiry;
	}

	public void setIdleExpiry(Duration idleExpiry) {
		this.idleExpiry = idleExpiry;
	}

	public int getMaxKeyLength() {
		return this.maxKeyLength;
	}

	public void setMaxKeyLength(int maxKeyLength) {
		this.maxKeyLength = maxKeyLength;
	}

	public Map<Integer, Outcome> getStatusOutcomes() {
		return this.statusOutcomes;
	}

	public void setStatusOutcomes(Map<Integer, Outcome> statusOutcomes) {
		this.statusOutcomes = statusOutcomes;
	}

	public Map<String, Host> getInstances() {
		return this.instances;
	}

	public void setInstances(Map<String, Host> instances) {
		this.instances = instances;
	}

	/**
	 * The breaker settings of one host (any breaker setting, over {@code breaker.defaults}),
	 * and how its responses are judged.
	 */
	public static class Host extends BreakerProperties.Instance {

		/**
		 * Responses of this host judged otherwise, by status, over breaker.http.status-outcomes,
		 * e.g. 404: success, 409: failure.
		 */
		private Map<Integer, Outcome> statusOutcomes = new LinkedHashMap<>();

		public Map<Integer, Outcome> getStatusOutcomes() {
			return this.statusOutcomes;
		}

		public void setStatusOutcomes(Map<Integer, Outcome> statusOutcomes) {
			this.statusOutcomes = statusOutcomes;
		}

	}

}
