package dev.breaker.autoconfigure.http;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.breaker.autoconfigure.BreakerProperties;
import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ChildKeys;
import dev.breaker.core.Outcome;
import dev.breaker.core.Ticker;
import dev.breaker.http.HostBreakers;
import dev.breaker.http.HttpClassifier;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * What {@code breaker.http.*} means: a bounded set of per-host children of the registry's
 * {@code http} group, a config for each host tuned on its own, and how each host's statuses
 * are judged. Validated when read, so a bad value stops start-up naming the property.
 */
final class HostsPolicy {

	private static final String PREFIX = "breaker.http";

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
		if (idleExpiry == null || idleExpiry.isNegative() || idleExpiry.isZero()) {
			throw new InvalidBreakerPropertyException(PREFIX + ".idle-expiry", idleExpiry, "a positive duration");
		}
		int maxKeyLength = http.getMaxKeyLength();
		if (maxKeyLength < ChildKeys.MIN_MAX_LENGTH || maxKeyLength > ChildKeys.MAX_MAX_LENGTH) {
			throw new InvalidBreakerPropertyException(PREFIX + ".max-key-length", maxKeyLength,
					"an integer in [" + ChildKeys.MIN_MAX_LENGTH + ", " + ChildKeys.MAX_MAX_LENGTH + "]");
		}
		// Hosts never consult the "http" group breaker: one failing host must not stop calls to another.
		BreakerRegistry.Children children = new BreakerRegistry.Children(http.getMaxHosts(), idleExpiry, false, 1,
				maxKeyLength);
		Map<String, BreakerConfig> configs = new LinkedHashMap<>();
		for (String host : http.getInstances().keySet()) {
			String name = HostBreakers.GROUP + ":" + key(host, http);
			configs.put(name, layered(host, binder).toConfig(path(host), breaker.getDefaults(), ticker));
		}
		return new HostsPolicy(children, configs);
	}

	/** The property prefix of one host's settings, as a user writes it: {@code breaker.http.instances[api.acme.com]}. */
	static String path(String host) {
		return PREFIX + ".instances[" + host + "]";
	}

	/** The key of the breaker of a host configured under {@code breaker.http.instances}. */
	private static String key(String host, HttpBreakerProperties http) {
		return ChildKeys.of(host.toLowerCase(Locale.ROOT), http.getMaxKeyLength());
	}

	/**
	 * A host's settings over those of the {@code http} group ({@code breaker.instances.http}, which
	 * every host without settings of its own uses), so tuning one host keeps the rest of the
	 * group's tuning. {@code breaker.defaults} lie underneath.
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

	/** The per-host breakers, judging statuses as {@code breaker.http.*status-outcomes} say. */
	static HostBreakers hostBreakers(BreakerRegistry registry, HttpBreakerProperties http) {
		HttpClassifier classifier = classifier(HttpClassifier.defaults(), http.getStatusOutcomes(),
				PREFIX + ".status-outcomes");
		Map<String, HttpClassifier> perHost = new LinkedHashMap<>();
		http.getInstances().forEach((host, settings) -> perHost.put(key(host, http),
				classifier(classifier, settings.getStatusOutcomes(), path(host) + ".status-outcomes")));
		return new HostBreakers(registry, classifier, perHost);
	}

	/** {@code base} with {@code outcomes} over it; a status outside 100..599 names its property. */
	private static HttpClassifier classifier(HttpClassifier base, Map<Integer, Outcome> outcomes, String path) {
		for (Integer status : outcomes.keySet()) {
			if (status == null || status < 100 || status > 599) {
				throw new InvalidBreakerPropertyException(path + "." + status, status, "an HTTP status in 100..599");
			}
		}
		return base.withStatusOutcomes(outcomes);
	}

}
