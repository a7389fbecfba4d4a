package dev.breaker.autoconfigure.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.breaker.autoconfigure.BreakerProperties;
import dev.breaker.core.Outcome;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of the per-host breakers of Spring's HTTP clients.
 */
@ConfigurationProperties("breaker.http")
public class HttpBreakerProperties {

	/**
	 * Whether RestClient, RestTemplate and WebClient built from Spring Boot's builders
	 * guard every request with the breaker of its host.
	 */
	private boolean enabled = true;

	/**
	 * Most hosts with a breaker at once; beyond it the breaker of the host used least
	 * recently is dropped.
	 */
	private int maxHosts = 1000;

	/**
	 * How long the breaker of a host that gets no requests is kept. At most 168h.
	 */
	private Duration idleExpiry = Duration.ofMinutes(10);

	/**
	 * Host keys longer than this are shortened to a prefix, a tilde and a 16-digit hash
	 * of the whole key (the same on every replica). In [32, 1024].
	 */
	private int maxKeyLength = 128;

	/**
	 * Responses of every host judged otherwise than by the default rules, by status, e.g.
	 * 404: success. Outcomes: success, failure, timeout, ignored, throttled.
	 */
	private Map<Integer, Outcome> statusOutcomes = new LinkedHashMap<>();

	/**
	 * Retries of every host's requests; per host under
	 * breaker.http.instances.&lt;host&gt;.retry.
	 */
	@NestedConfigurationProperty
	private HttpRetry retry = new HttpRetry();

	/**
	 * Per-host settings, keyed by host, or host:port off the scheme's default port, the
	 * way the breaker is named (http:host). Keys with dots need brackets in properties:
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

	public HttpRetry getRetry() {
		return this.retry;
	}

	public void setRetry(HttpRetry retry) {
		this.retry = retry;
	}

	public Map<String, Host> getInstances() {
		return this.instances;
	}

	public void setInstances(Map<String, Host> instances) {
		this.instances = instances;
	}

	/**
	 * The breaker settings of one host (any breaker setting, over
	 * {@code breaker.defaults}), and how its responses are judged.
	 */
	public static class Host extends BreakerProperties.Instance {

		/**
		 * Responses of this host judged otherwise, by status, over
		 * breaker.http.status-outcomes, e.g. 404: success, 409: failure.
		 */
		private Map<Integer, Outcome> statusOutcomes = new LinkedHashMap<>();

		/**
		 * Retries of this host's requests (over breaker.http.retry), and the retry budget
		 * of its breaker.
		 */
		private HostRetry retry = new HostRetry();

		public Map<Integer, Outcome> getStatusOutcomes() {
			return this.statusOutcomes;
		}

		public void setStatusOutcomes(Map<Integer, Outcome> statusOutcomes) {
			this.statusOutcomes = statusOutcomes;
		}

		@Override
		public HostRetry getRetry() {
			return this.retry;
		}

		public void setRetry(HostRetry retry) {
			this.retry = retry;
		}

		@Override
		public void setRetry(BreakerProperties.Retry retry) {
			HostRetry host = new HostRetry();
			host.setIntervals(retry.getIntervals());
			host.setJitter(retry.getJitter());
			host.setOn(retry.getOn());
			host.setRecordEachAttempt(retry.getRecordEachAttempt());
			host.setBudget(retry.getBudget());
			this.retry = host;
		}

	}

	/**
	 * Retries of HTTP requests: idempotent methods only (GET, HEAD, OPTIONS, PUT,
	 * DELETE), POST and PATCH only with an Idempotency-Key header or non-idempotent:
	 * true. Each field starts at its default; a host inherits what it does not set.
	 */
	public static class HttpRetry {

		/**
		 * The pause before each retry, e.g. [100ms, 200ms, 400ms]: as many retries as
		 * intervals. Empty for no retries. A longer Retry-After of a 429 or 503 (up to
		 * the breaker's max-open-wait) is the pause instead.
		 */
		private List<Duration> intervals = new ArrayList<>();

		/**
		 * Random spread of each pause as a fraction of it: a pause is drawn from
		 * [interval * (1 - jitter), interval * (1 + jitter)]. In [0, 1].
		 */
		private Double jitter = 0.5;

		/**
		 * What retries: outcomes (failure: connection errors and 5xx, timeout, throttled:
		 * 429 and 503 with Retry-After) and HTTP statuses (e.g. 502, 503).
		 */
		private List<String> on = new ArrayList<>(List.of("failure", "timeout"));

		/**
		 * Whether requests of any method retry, POST and PATCH without an Idempotency-Key
		 * header too.
		 */
		private Boolean nonIdempotent = false;

		public List<Duration> getIntervals() {
			return this.intervals;
		}

		public void setIntervals(List<Duration> intervals) {
			this.intervals = intervals;
		}

		public Double getJitter() {
			return this.jitter;
		}

		public void setJitter(Double jitter) {
			this.jitter = jitter;
		}

		public List<String> getOn() {
			return this.on;
		}

		public void setOn(List<String> on) {
			this.on = on;
		}

		public Boolean getNonIdempotent() {
			return this.nonIdempotent;
		}

		public void setNonIdempotent(Boolean nonIdempotent) {
			this.nonIdempotent = nonIdempotent;
		}

	}

	/**
	 * One host's retries: what breaker.http.retry says, per host, and its breaker's retry
	 * budget. Each field starts at its default; one the host does not set is inherited
	 * from breaker.http.retry ({@link #isSet}).
	 */
	public static class HostRetry extends BreakerProperties.Retry {

		/**
		 * Whether requests of any method retry, POST and PATCH without an Idempotency-Key
		 * header too.
		 */
		private Boolean nonIdempotent = false;

		public Boolean getNonIdempotent() {
			return this.nonIdempotent;
		}

		public void setNonIdempotent(Boolean nonIdempotent) {
			this.nonIdempotent = nonIdempotent;
			markSet("nonIdempotent");
		}

	}

}
