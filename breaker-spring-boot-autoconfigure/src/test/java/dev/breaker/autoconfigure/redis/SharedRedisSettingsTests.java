package dev.breaker.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetRedis;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code spring.data.redis.*} as fleet mode reads it: the same Redis Spring Data Redis
 * would connect to.
 */
class SharedRedisSettingsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class));

	@Test
	void sentinelNamesThePrimaryAndTheSentinelsEachWithItsOwnCredentials() {
		FleetRedis redis = read("spring.data.redis.sentinel.master=mymaster",
				"spring.data.redis.sentinel.nodes=10.0.0.1:26379,10.0.0.2:26380",
				"spring.data.redis.sentinel.username=watcher", "spring.data.redis.sentinel.password=watch",
				"spring.data.redis.username=checkout", "spring.data.redis.password=s3cret",
				"spring.data.redis.database=3");

		assertThat(redis.topology()).isEqualTo(FleetRedis.Topology.SENTINEL);
		RedisURI uri = redis.uris().get(0);
		assertThat(uri.getSentinelMasterId()).isEqualTo("mymaster");
		assertThat(uri.getUsername()).isEqualTo("checkout");
		assertThat(new String(uri.getPassword())).isEqualTo("s3cret");
		assertThat(uri.getDatabase()).isEqualTo(3);
		assertThat(uri.getSentinels()).extracting(RedisURI::getHost, RedisURI::getPort)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("10.0.0.1", 26379),
					org.assertj.core.groups.Tuple.tuple("10.0.0.2", 26380));
		assertThat(uri.getSentinels()).allSatisfy(sentinel -> {
			assertThat(sentinel.getUsername()).isEqualTo("watcher");
			assertThat(new String(sentinel.getPassword())).isEqualTo("watch");
			assertThat(sentinel.getTimeout()).isEqualTo(Duration.ofMillis(500));
		});
	}

	@Test
	void aClusterIsDiscoveredFromItsNodesWithTheDataCredentials() {
		FleetRedis redis = read("spring.data.redis.cluster.nodes=10.0.0.1:7000,10.0.0.2:7001",
				"spring.data.redis.username=checkout", "spring.data.redis.password=s3cret");

		assertThat(redis.topology()).isEqualTo(FleetRedis.Topology.CLUSTER);
		assertThat(redis.uris()).extracting(RedisURI::getPort).containsExactly(7000, 7001);
		assertThat(redis.uris()).allSatisfy(node -> assertThat(node.getUsername()).isEqualTo("checkout"));
	}

	@Test
	void tlsAppliesToEveryNodeWithTheBundlesManagers() {
		FleetRedis redis = read("spring.data.redis.cluster.nodes=10.0.0.1:7000,10.0.0.2:7001",
				"spring.data.redis.ssl.enabled=true");

		assertThat(redis.uris()).allSatisfy(node -> assertThat(node.isSsl()).isTrue());
		assertThat(redis.ssl()).isNotNull();
	}

	@Test
	void fleetConnectionsAreNamedAndSendNoClientSetinfo() {
		RedisURI uri = read("spring.data.redis.host=redis.internal").uris().get(0);

		assertThat(uri.getHost()).isEqualTo("redis.internal");
		assertThat(uri.getClientName()).isEqualTo("breaker-fleet");
		assertThat(uri.getLibraryName()).isEmpty();
		assertThat(uri.getLibraryVersion()).isEmpty();
		assertThat(uri.isSsl()).isFalse();
	}

	@Test
	void aStaticMasterReplicaSetUpStopsStartUpNamingTheProperty() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisBreakerAutoConfiguration.class))
			.withBean(BreakerRegistry.class, () -> BreakerRegistry.builder().build())
			.withPropertyValues("breaker.shared.redis.enabled=true",
					"spring.data.redis.masterreplica.nodes=10.0.0.1:6379,10.0.0.2:6379")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessage(
						"Invalid value '10.0.0.1:6379,10.0.0.2:6379' for property 'spring.data.redis.masterreplica.nodes'; "
								+ "allowed: no value while breaker.shared.redis.enabled=true: fleet mode writes, so it needs the primary "
								+ "even after a failover; use Sentinel (spring.data.redis.sentinel.*), a Cluster "
								+ "(spring.data.redis.cluster.nodes), or spring.data.redis.host naming the primary"));
	}

	private FleetRedis read(String... properties) {
		FleetRedis[] read = new FleetRedis[1];
		runner.withPropertyValues(properties)
			.run(context -> read[0] = SharedRedisSettings.redis(context.getBean(DataRedisConnectionDetails.class),
					Duration.ofMillis(500)));
		return read[0];
	}

}
