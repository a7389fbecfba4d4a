package dev.breaker.cloud;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The breakers behind both Spring Cloud factories: the registry they come from, the
 * configurations the factories' customizers gave before the registry was built, and each
 * id's timeout.
 *
 * <p>
 * An id is a breaker of the registry; an id with a group is the group breaker's child, so
 * a call must pass both and is recorded in both (breaker's tenants).
 */
public final class CloudBreakers {

	private final Supplier<BreakerRegistry> registry;

	private final Function<String, BreakerConfig> configured;

	private final Function<String, @Nullable Duration> timeouts;

	private final Map<String, BreakerConfig> configurations = new ConcurrentHashMap<>();

	private volatile @Nullable Function<String, BreakerConfig> defaultConfiguration;

	private volatile boolean sealed;

	/**
	 * Create the source of both factories' breakers.
	 * @param registry the registry, asked for on the first call (it is built after the
	 * factories, with their configurations)
	 * @param configured the configuration {@code breaker.*} gives an id
	 * @param timeouts the timeout {@code breaker.*} gives an id's reactive calls, or
	 * {@code null}
	 */
	public CloudBreakers(Supplier<BreakerRegistry> registry, Function<String, BreakerConfig> configured,
			Function<String, @Nullable Duration> timeouts) {
		this.registry = registry;
		this.configured = configured;
		this.timeouts = timeouts;
	}

	Breaker breaker(String id, @Nullable String group) {
		BreakerRegistry registry = this.registry.get();
		return (group != null) ? registry.breaker(group, id) : registry.breaker(id);
	}

	@Nullable Duration timeout(String id, @Nullable String group) {
		return this.timeouts.apply((group != null) ? group : id);
	}

	BreakerConfigBuilder configBuilder(String id) {
		return new BreakerConfigBuilder(this.configured.apply(id).toBuilder());
	}

	/**
	 * What both factories' {@code configure} does: each id's configuration, from the
	 * factory's {@code configBuilder(id)}, changed by {@code consumer}. With no ids it
	 * does nothing, sealed or not, as Spring Cloud's own loop over the ids: nothing would
	 * be configured too late.
	 */
	void configure(Function<String, BreakerConfigBuilder> builders, Consumer<BreakerConfigBuilder> consumer,
			String... ids) {
		if (ids.length == 0) {
			return;
		}
		requireNotSealed("configure");
		for (String id : ids) {
			BreakerConfigBuilder builder = builders.apply(id);
			consumer.accept(builder);
			this.configurations.put(id, builder.build());
		}
	}

	void configureDefault(Function<String, BreakerConfig> defaultConfiguration) {
		requireNotSealed("configureDefault");
		this.defaultConfiguration = defaultConfiguration;
	}

	/**
	 * Hands what the customizers configured to the registry's builder, once, before it
	 * builds.
	 * @param builder the registry's builder
	 */
	public void applyTo(BreakerRegistry.Builder builder) {
		this.sealed = true;
		Function<String, BreakerConfig> defaults = this.defaultConfiguration;
		if (defaults != null) {
			builder.defaults(defaults.apply(DEFAULT_ID));
		}
		this.configurations.forEach(builder::config);
	}

	/** The id a default configuration function is applied to. */
	static final String DEFAULT_ID = "default";

	private void requireNotSealed(String method) {
		if (this.sealed) {
			throw new IllegalStateException(method + "(...) on breaker's Spring Cloud factory after the breaker "
					+ "registry was built: call it from a Customizer bean, or configure breaker.instances.<id>");
		}
	}

}
