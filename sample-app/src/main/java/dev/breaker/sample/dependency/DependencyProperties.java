package dev.breaker.sample.dependency;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The sample's two dependencies: how each server behaves and how the app's client calls
 * it.
 */
@ConfigurationProperties("sample.dependencies")
public class DependencyProperties {

	/** The payments gateway that {@code POST /checkout} charges. */
	private final Dependency payments = new Dependency(16, Duration.ofMillis(20));

	/** The recommendation service behind {@code GET /recommendations/{userId}}. */
	private final Dependency recommendations = new Dependency(8, Duration.ofMillis(10));

	public Dependency getPayments() {
		return this.payments;
	}

	public Dependency getRecommendations() {
		return this.recommendations;
	}

	/** One dependency: its server and the client the app uses to call it. */
	public static class Dependency {

		/**
		 * Worker threads of the dependency's server: how many requests it serves at once.
		 */
		private int threads;

		/** How long a healthy answer takes. */
		private Duration latency;

		/**
		 * How long an answer takes in chaos mode "slow" unless the chaos request says
		 * otherwise.
		 */
		private Duration slowLatency = Duration.ofMillis(1500);

		/**
		 * Share of requests failed in chaos mode "flaky" unless the chaos request says
		 * otherwise.
		 */
		private int failurePercent = 50;

		/**
		 * The longest the server holds a request in chaos mode "wedged" before letting it
		 * go.
		 */
		private Duration maxWedge = Duration.ofMinutes(2);

		/** The app's connect timeout when calling the dependency. */
		private Duration connectTimeout = Duration.ofMillis(250);

		/**
		 * The app's read timeout when calling the dependency: a wedged call fails after
		 * this.
		 */
		private Duration readTimeout = Duration.ofSeconds(1);

		/**
		 * Where the app's client calls the dependency; empty: the server the app starts
		 * beside itself. The fleet demo points every replica at one gateway this way.
		 */
		private URI url;

		Dependency(int threads, Duration latency) {
			this.threads = threads;
			this.latency = latency;
		}

		public int getThreads() {
			return this.threads;
		}

		public void setThreads(int threads) {
			this.threads = threads;
		}

		public Duration getLatency() {
			return this.latency;
		}

		public void setLatency(Duration latency) {
			this.latency = latency;
		}

		public Duration getSlowLatency() {
			return this.slowLatency;
		}

		public void setSlowLatency(Duration slowLatency) {
			this.slowLatency = slowLatency;
		}

		public int getFailurePercent() {
			return this.failurePercent;
		}

		public void setFailurePercent(int failurePercent) {
			this.failurePercent = failurePercent;
		}

		public Duration getMaxWedge() {
			return this.maxWedge;
		}

		public void setMaxWedge(Duration maxWedge) {
			this.maxWedge = maxWedge;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public Duration getReadTimeout() {
			return this.readTimeout;
		}

		public void setReadTimeout(Duration readTimeout) {
			this.readTimeout = readTimeout;
		}

		public URI getUrl() {
			return this.url;
		}

		public void setUrl(URI url) {
			this.url = url;
		}

	}

}
