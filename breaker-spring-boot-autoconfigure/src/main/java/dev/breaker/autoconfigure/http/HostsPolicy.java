package dev.breaker.autoconfigure.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.breaker.autoconfigure.BreakerProperties;
import dev.breaker.autoconfigure.BreakerSettings;
import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.ChildFootprint;
import dev.breaker.core.ChildKeys;
import dev.breaker.core.InvalidBreakerConfigException;
import dev.breaker.core.Outcome;
import dev.breaker.core.Ticker;
import dev.breaker.http.HostBreakers;
import dev.breaker.http.HttpClassifier;
import dev.breaker.http.HttpRetryPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * What {@code breaker.http.*} means: a bounded set of per-host children of the registry's
 * {@code http} group, a config for each host tuned on its own, and how each host's
 * statuses are judged. Validated when read, so a bad value stops start-up naming the
 * property.
 */
final class HostsPolicy {

	private static final String PREFIX = "breaker.http";

	/** A scheme without a default port, so that a {@code :port} stays in a key. */
	private static final String HOST_ONLY_SCHEME = "host";

	/** The ports a request's breaker leaves out on the scheme they are the default of. */
	private static final List<String> DEFAULT_PORTS = List.of(":80", ":443");

	private final BreakerRegistry.Children children;

	private final Map<String, BreakerConfig> hostConfigs;

	private HostsPolicy(BreakerRegistry.Children children, Map<String, BreakerConfig> hostConfigs) {
		this.children = children;
		this.hostConfigs = hostConfigs;
	}

	static HostsPolicy of(HttpBreakerProperties http, BreakerProperties breaker, Ticker ticker, Binder binder) {
		if (http.getMaxHosts() < 1) {
			throw new InvalidBreakerPropertyException(PREFIX + ".max-hosts", http.getMaxHosts(), "at least 1");
		}
		Duration idleExpiry = http.getIdleExpiry();
		if (!BreakerSetting.Range.positive(idleExpiry)) {
			throw new InvalidBreakerPropertyException(PREFIX + ".idle-expiry", idleExpiry,
					BreakerSetting.Range.POSITIVE_DURATION);
		}
		int maxKeyLength = http.getMaxKeyLength();
		if (maxKeyLength < ChildKeys.MIN_MAX_LENGTH || maxKeyLength > ChildKeys.MAX_MAX_LENGTH) {
			throw new InvalidBreakerPropertyException(PREFIX + ".max-key-length", maxKeyLength,
					"an integer in [" + ChildKeys.MIN_MAX_LENGTH + ", " + ChildKeys.MAX_MAX_LENGTH + "]");
		}
		// Hosts never consult the "http" group breaker: one failing host must not stop
		// calls to another.
		BreakerRegistry.Children children;
		try {
			children = new BreakerRegistry.Children(http.getMaxHosts(), idleExpiry, false, 1, maxKeyLength);
		}
		catch (InvalidBreakerConfigException ex) {
			// what the checks above leave to the engine: the idle expiry's upper bound
			throw new InvalidBreakerPropertyException(PREFIX + ".idle-expiry", idleExpiry, ex.allowed());
		}
		Map<String, BreakerConfig> configs = new LinkedHashMap<>();
		Map<String, String> configuredBy = new LinkedHashMap<>();
		long configuredBytes = 0;
		for (String host : http.getInstances().keySet()) {
			List<String> keys = keys(host, http);
			for (String key : keys) {
				String other = configuredBy.putIfAbsent(key, host);
				if (other != null) {
					throw new InvalidBreakerPropertyException(path(host), host, "a host no other key names: "
							+ path(other) + " configures breaker " + HostBreakers.GROUP + ":" + key + " too");
				}
			}
			BreakerConfig config = BreakerSettings.config(path(host), layered(host, binder), breaker.getDefaults(),
					ticker);
			keys.forEach((key) -> configs.put(HostBreakers.GROUP + ":" + key, config));
			configuredBytes += keys.size() * ChildFootprint.bytes(config, false);
		}
		// every other host has the http group's settings, and records its own latency
		HttpBreakerProperties.Host group = new HttpBreakerProperties.Host();
		binder.bind(BreakerProperties.path(HostBreakers.GROUP), Bindable.ofInstance(group));
		BreakerConfig groupConfig = BreakerSettings.config(BreakerProperties.path(HostBreakers.GROUP), group,
				breaker.getDefaults(), ticker);
		BreakerSettings.checkChildrenMemory(PREFIX + ".max-hosts", http.getMaxHosts(), groupConfig, false,
				configs.size(), configuredBytes);
		return new HostsPolicy(children, configs);
	}

	/**
	 * The {@code health-when-open} of every host configured under
	 * {@code breaker.http.instances}, by the full name of its breaker: the host's own,
	 * over the {@code http} group's, over {@code breaker.defaults}.
	 */
	static HostHealthWhenOpen healthWhenOpen(HttpBreakerProperties http, BreakerProperties breaker, Binder binder) {
		Map<String, BreakerProperties.OpenHealth> health = new LinkedHashMap<>();
		for (String host : http.getInstances().keySet()) {
			BreakerProperties.OpenHealth own = BreakerSettings.healthWhenOpen(path(host), layered(host, binder),
					breaker.getDefaults());
			keys(host, http).forEach((key) -> health.put(HostBreakers.GROUP + ":" + key, own));
		}
		return new HostHealthWhenOpen(health);
	}

	/** The hosts configured under {@code breaker.http.instances}. */
	static ConfiguredHosts configuredHosts(HttpBreakerProperties http) {
		Set<String> names = new LinkedHashSet<>();
		for (String host : http.getInstances().keySet()) {
			keys(host, http).forEach((key) -> names.add(HostBreakers.GROUP + ":" + key));
		}
		return new ConfiguredHosts(names);
	}

	/**
	 * The property prefix of one host's settings, as a user writes it:
	 * {@code breaker.http.instances[api.acme.com]}.
	 */
	static String path(String host) {
		return PREFIX + ".instances[" + host + "]";
	}

	/**
	 * The keys of the breakers a host configured under {@code breaker.http.instances}
	 * tunes: the key its requests' breaker has ({@link HostBreakers#hostKey(URI)}), or
	 * start-up stops naming the property (a key no request can have would be bound and
	 * validated, and never used). A host written with {@code :80} or {@code :443} is read
	 * both ways: requests on the scheme whose default that port is name their breaker
	 * without it ({@code https://api.acme.com/}), requests on the other scheme with it
	 * ({@code http://api.acme.com:443/}).
	 */
	private static List<String> keys(String host, HttpBreakerProperties http) {
		String requestKey = requestKey(host);
		if (requestKey == null || !requestKey.equals(host.toLowerCase(Locale.ROOT))) {
			throw new InvalidBreakerPropertyException(path(host), host,
					"a host as requests name it, with :port off the scheme's default port "
							+ "(api.acme.com, api.acme.com:8443)");
		}
		String key = ChildKeys.of(requestKey, http.getMaxKeyLength());
		for (String defaultPort : DEFAULT_PORTS) {
			if (requestKey.endsWith(defaultPort)) {
				String withoutPort = requestKey.substring(0, requestKey.length() - defaultPort.length());
				return List.of(ChildKeys.of(withoutPort, http.getMaxKeyLength()), key);
			}
		}
		return List.of(key);
	}

	/**
	 * The key of a request to {@code host}, read as a request's authority under a scheme
	 * with no default port; {@code null} if it is no host, or more than one.
	 */
	private static @Nullable String requestKey(String host) {
		URI uri;
		try {
			uri = new URI(HOST_ONLY_SCHEME + "://" + host + "/");
		}
		catch (URISyntaxException notAHost) {
			return null;
		}
		boolean hostOnly = "/".equals(uri.getRawPath()) && uri.getRawQuery() == null && uri.getRawFragment() == null
				&& uri.getRawUserInfo() == null;
		return hostOnly ? HostBreakers.hostKey(uri) : null;
	}

	/**
	 * A host's settings over those of the {@code http} group
	 * ({@code breaker.instances.http}, which every host without settings of its own
	 * uses), so tuning one host keeps the rest of the group's tuning.
	 * {@code breaker.defaults} lie underneath.
	 */
	private static BreakerProperties.Instance layered(String host, Binder binder) {
		HttpBreakerProperties.Host layered = new HttpBreakerProperties.Host();
		binder.bind(BreakerProperties.path(HostBreakers.GROUP), Bindable.ofInstance(layered));
		binder.bind(ConfigurationPropertyName.of(PREFIX + ".instances").append("[" + host + "]"),
				Bindable.ofInstance(layered));
		return layered;
	}

	void applyTo(BreakerRegistry.Builder builder) {
		builder.children(HostBreakers.GROUP, this.children);
		this.hostConfigs.forEach(builder::config);
	}

	/**
	 * The per-host breakers, judging statuses as {@code breaker.http.*status-outcomes}
	 * say and retrying as {@code breaker.http.*retry} says.
	 */
	static HostBreakers hostBreakers(BreakerRegistry registry, HttpBreakerProperties http) {
		HttpClassifier classifier = classifier(HttpClassifier.defaults(), http.getStatusOutcomes(),
				PREFIX + ".status-outcomes");
		Map<String, HttpClassifier> perHost = new LinkedHashMap<>();
		http.getInstances().forEach((host, settings) -> {
			HttpClassifier hostClassifier = classifier(classifier, settings.getStatusOutcomes(),
					path(host) + ".status-outcomes");
			keys(host, http).forEach((key) -> perHost.put(key, hostClassifier));
		});
		HttpBreakerProperties.HttpRetry all = http.getRetry();
		HttpRetryPolicy retry = retryPolicy(all, null, PREFIX);
		Map<String, HttpRetryPolicy> retries = new LinkedHashMap<>();
		http.getInstances().forEach((host, settings) -> {
			HttpRetryPolicy hostRetry = retryPolicy(all, settings.getRetry(), path(host));
			keys(host, http).forEach((key) -> retries.put(key, hostRetry));
		});
		return new HostBreakers(registry, classifier, perHost, retry, retries);
	}

	/**
	 * A host's retries: what it sets ({@code host}, may be null) over
	 * {@code breaker.http.retry} ({@code all}), validated, each error naming the property
	 * where the value was written.
	 */
	static HttpRetryPolicy retryPolicy(HttpBreakerProperties.HttpRetry all, HttpBreakerProperties.HostRetry host,
			String hostPath) {
		if (host != null && host.isSet("recordEachAttempt")) {
			throw new InvalidBreakerPropertyException(hostPath + ".retry.record-each-attempt",
					host.getRecordEachAttempt(),
					"unset: every attempt of an HTTP request asks the breaker and is recorded");
		}
		boolean ownIntervals = host != null && host.isSet("intervals");
		List<Duration> intervals = ownIntervals ? host.getIntervals() : all.getIntervals();
		String intervalsPath = (ownIntervals ? hostPath : PREFIX) + ".retry.intervals";
		BreakerSettings.retryIntervals(intervals, intervalsPath);
		boolean ownJitter = host != null && host.isSet("jitter");
		Double jitter = ownJitter ? host.getJitter() : all.getJitter();
		BreakerSettings.checkRetryJitter(jitter, (ownJitter ? hostPath : PREFIX) + ".retry.jitter");
		boolean ownOn = host != null && host.isSet("on");
		List<String> on = ownOn ? host.getOn() : all.getOn();
		String onPath = (ownOn ? hostPath : PREFIX) + ".retry.on";
		Set<Outcome> outcomes = EnumSet.noneOf(Outcome.class);
		Set<Integer> statuses = new LinkedHashSet<>();
		for (int i = 0; i < on.size(); i++) {
			addTrigger(on.get(i), outcomes, statuses, onPath + "[" + i + "]");
		}
		boolean ownNonIdempotent = host != null && host.isSet("nonIdempotent");
		Boolean nonIdempotent = ownNonIdempotent ? host.getNonIdempotent() : all.getNonIdempotent();
		return new HttpRetryPolicy(intervals, jitter, outcomes, statuses, Boolean.TRUE.equals(nonIdempotent));
	}

	/**
	 * One {@code retry.on} entry: an HTTP status in 100..599, or failure, timeout or
	 * throttled.
	 */
	private static void addTrigger(String value, Set<Outcome> outcomes, Set<Integer> statuses, String property) {
		String trimmed = (value != null) ? value.trim() : "";
		if (trimmed.matches("[0-9]{3}")) {
			int status = Integer.parseInt(trimmed);
			if (status >= 100 && status <= 599) {
				statuses.add(status);
				return;
			}
		}
		String name = trimmed.replace("-", "").replace("_", "").toUpperCase(Locale.ROOT);
		for (Outcome outcome : List.of(Outcome.FAILURE, Outcome.TIMEOUT, Outcome.THROTTLED)) {
			if (outcome.name().equals(name)) {
				outcomes.add(outcome);
				return;
			}
		}
		throw new InvalidBreakerPropertyException(property, value,
				"an HTTP status in 100..599, or failure, timeout or throttled");
	}

	/**
	 * {@code base} with {@code outcomes} over it; a status outside 100..599 names its
	 * property.
	 */
	private static HttpClassifier classifier(HttpClassifier base, Map<Integer, Outcome> outcomes, String path) {
		for (Integer status : outcomes.keySet()) {
			if (status == null || status < 100 || status > 599) {
				throw new InvalidBreakerPropertyException(path + "." + status, status, "an HTTP status in 100..599");
			}
		}
		return base.withStatusOutcomes(outcomes);
	}

}
