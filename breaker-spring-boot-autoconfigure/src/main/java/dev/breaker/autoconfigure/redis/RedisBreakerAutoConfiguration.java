package dev.breaker.autoconfigure.redis;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.UUID;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.ConditionalOnBreakerSwitch;
import dev.breaker.autoconfigure.actuate.SharedStateEndpointConfiguration;
import dev.breaker.autoconfigure.actuate.SharedStoreMetricsConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetRedis;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.FleetWindow;
import dev.breaker.redis.SharedStoreStatus;
import io.lettuce.core.RedisClient;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Fleet mode: with {@code breaker.shared.redis.enabled=true}, every breaker of the
 * registry shares trips, closes and half-open probes with the other replicas through the
 * Redis configured by {@code spring.data.redis.*}.
 */
@AutoConfiguration(after = { BreakerAutoConfiguration.class, DataRedisAutoConfiguration.class })
@ConditionalOnClass({ RedisClient.class, DataRedisConnectionDetails.class })
@ConditionalOnBreakerSwitch("breaker.shared.redis.enabled")
@ConditionalOnBean(BreakerRegistry.class)
@EnableConfigurationProperties(SharedRedisProperties.class)
@Import({ SharedStateEndpointConfiguration.class, SharedStoreMetricsConfiguration.class })
public final class RedisBreakerAutoConfiguration {

	private static final Log LOG = LogFactory.getLog(RedisBreakerAutoConfiguration.class);

	private static final String REDIS_HEALTH = "redisHealthContributor";

	private static final String REDIS_HEALTH_INDICATOR = "redisHealthIndicator";

	@Bean
	@ConditionalOnMissingBean
	SharedStoreStatus breakerSharedStoreStatus(SharedRedisProperties properties) {
		String configured = properties.getReplicaId();
		String replicaId = configured == null || configured.isBlank() ? defaultReplicaId() : configured;
		return new SharedStoreStatus(replicaId, Clock.systemUTC());
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	FleetSync breakerFleetSync(BreakerRegistry registry, SharedStoreStatus status, SharedRedisProperties properties,
			ObjectProvider<DataRedisConnectionDetails> connectionDetails) throws InterruptedException {
		SharedRedisSettings.validate(properties);
		FleetRedis redis = SharedRedisSettings.redis(connectionDetails.getIfAvailable(), properties.getTimeout());
		FleetSync sync = new FleetSync(registry, status, redis, SharedRedisSettings.settings(properties));
		sync.start();
		// bounded: a replica starting while a circuit is open should start with it open,
		// but never hang on Redis
		sync.awaitFirstSync(properties.getStartupSyncTimeout());
		return sync;
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	@ConditionalOnBreakerSwitch("breaker.shared.redis.fleet-window")
	FleetWindow breakerFleetWindow(FleetSync sync, SharedRedisProperties properties) {
		FleetWindow window = new FleetWindow(sync, properties.getFlushInterval());
		window.start();
		return window;
	}

	private static String defaultReplicaId() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException unnamed) {
			host = "replica";
		}
		return host + "-" + ManagementFactory.getRuntimeMXBean().getPid() + "-"
				+ UUID.randomUUID().toString().substring(0, 8);
	}

	/**
	 * Says at start-up when Spring Boot's Redis health indicator is on: it makes
	 * {@code /actuator/health} wait on Redis and answer 503 while Redis is down or hung,
	 * which takes every replica out of a load balancer that polls it, though breakers
	 * never need Redis to work.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthContributor")
	static final class RedisHealthAdviceConfiguration {

		@Bean
		static SmartInitializingSingleton breakerFleetRedisHealthAdvice(ListableBeanFactory beans) {
			return () -> {
				if (beans.containsBean(REDIS_HEALTH) || beans.containsBean(REDIS_HEALTH_INDICATOR)) {
					LOG.info(
							"Fleet mode is on and Spring Boot's Redis health indicator is active: /actuator/health waits on "
									+ "Redis (up to spring.data.redis.timeout) and answers 503 while Redis is down or hung, which takes "
									+ "a replica out of a load balancer that polls it, though breakers never need Redis. Set "
									+ "management.health.redis.enabled=false, or leave 'redis' out of the health group the load "
									+ "balancer polls (management.endpoint.health.group.<name>.include).");
				}
			};
		}

	}

}
