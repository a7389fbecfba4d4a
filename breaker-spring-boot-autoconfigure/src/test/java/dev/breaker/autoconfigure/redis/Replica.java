package dev.breaker.autoconfigure.redis;

import java.util.ArrayList;
import java.util.List;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.RedisServerHarness;
import dev.breaker.redis.SharedStoreStatus;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * One replica of the service: its own Spring application context, its own registry, the
 * shared Redis. The fleet benchmarks start their replicas with it too (the module's test
 * jar holds it), with the production reconnect and start-up timeouts.
 */
public final class Replica implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private Replica(ConfigurableApplicationContext context) {
		this.context = context;
	}

	static Replica start(RedisServerHarness redis, String id, BreakerConfig defaults, String... properties) {
		List<String> all = new ArrayList<>(
				List.of("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port()));
		all.addAll(List.of(properties));
		return start(id, defaults, all.toArray(String[]::new));
	}

	/**
	 * A replica whose {@code properties} say where Redis is ({@code spring.data.redis.*}:
	 * Sentinel, Cluster, TLS…), with short reconnect and start-up timeouts, so that a
	 * test waits for an outage's end no longer than it must.
	 */
	static Replica start(String id, BreakerConfig defaults, String... properties) {
		List<String> all = new ArrayList<>(List.of("breaker.shared.redis.reconnect-interval=200ms",
				"breaker.shared.redis.startup-sync-timeout=3s"));
		all.addAll(List.of(properties));
		return start(id, BreakerRegistry.builder().defaults(defaults).build(), all.toArray(String[]::new));
	}

	/**
	 * A replica with fleet mode on as {@code id}, the breakers of {@code registry} and
	 * {@code properties} (where Redis is among them); its start waits for the first read
	 * of the fleet's state.
	 */
	public static Replica start(String id, BreakerRegistry registry, String... properties) {
		List<String> all = new ArrayList<>(
				List.of("breaker.shared.redis.enabled=true", "breaker.shared.redis.replica-id=" + id));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ReplicaConfiguration.class)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.bannerMode(Banner.Mode.OFF)
			.properties(all.toArray(String[]::new))
			.initializers(ctx -> ctx.getBeanFactory().registerSingleton("breakerRegistry", registry))
			.run();
		return new Replica(context);
	}

	public BreakerRegistry registry() {
		return context.getBean(BreakerRegistry.class);
	}

	Breaker breaker(String name) {
		return registry().breaker(name);
	}

	public SharedStoreStatus status() {
		return context.getBean(SharedStoreStatus.class);
	}

	public FleetSync sync() {
		return context.getBean(FleetSync.class);
	}

	<T> T bean(Class<T> type) {
		return context.getBean(type);
	}

	@Override
	public void close() {
		context.close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
			RedisBreakerAutoConfiguration.class })
	static class ReplicaConfiguration {

	}

}
