package dev.breaker.benchmarks.fleet;

import java.util.ArrayList;
import java.util.List;

import dev.breaker.autoconfigure.redis.RedisBreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.SharedStoreStatus;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * One replica of a service as production runs it: its own Spring context, fleet mode
 * auto-configured from properties.
 */
final class ContextReplica implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final BreakerRegistry registry;

	private ContextReplica(ConfigurableApplicationContext context, BreakerRegistry registry) {
		this.context = context;
		this.registry = registry;
	}

	/**
	 * Starts a replica on {@code redis} (its context start waits for the first read of
	 * the fleet's state).
	 */
	static ContextReplica start(int redisPort, String id, BreakerRegistry registry, String... properties) {
		List<String> all = new ArrayList<>(List.of("breaker.shared.redis.enabled=true",
				"breaker.shared.redis.replica-id=" + id, "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redisPort, "logging.level.root=WARN"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Replica.class)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.bannerMode(Banner.Mode.OFF)
			.properties(all.toArray(String[]::new))
			.initializers(ctx -> ctx.getBeanFactory().registerSingleton("breakerRegistry", registry))
			.run();
		return new ContextReplica(context, registry);
	}

	BreakerRegistry registry() {
		return registry;
	}

	SharedStoreStatus status() {
		return context.getBean(SharedStoreStatus.class);
	}

	FleetSync sync() {
		return context.getBean(FleetSync.class);
	}

	@Override
	public void close() {
		context.close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, RedisBreakerAutoConfiguration.class })
	static class Replica {

	}

}
