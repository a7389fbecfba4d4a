package dev.breaker.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;

import dev.breaker.actuate.metrics.SharedStoreMetrics;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.FleetWindow;
import dev.breaker.redis.RedisServerHarness;
import dev.breaker.redis.SharedStoreStatus;
import io.lettuce.core.RedisClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

@ExtendWith(OutputCaptureExtension.class)
class RedisBreakerAutoConfigurationTests {

	private static RedisServerHarness redis;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisBreakerAutoConfiguration.class))
		.withBean(BreakerRegistry.class, () -> BreakerRegistry.builder().build());

	@BeforeAll
	static void startRedis() {
		redis = RedisServerHarness.start();
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	private ApplicationContextRunner enabled() {
		return switchedTo("true");
	}

	@Test
	void saysAtStartUpThatSpringBootsRedisHealthCanTakeTheReplicaOutOfTheLoadBalancer(CapturedOutput output) {
		enabled().withConfiguration(AutoConfigurations.of(DataRedisHealthContributorAutoConfiguration.class))
			.run(context -> {
				assertThat(context).hasNotFailed().hasBean("redisHealthContributor");
				assertThat(output.getAll())
					.contains("Fleet mode is on and Spring Boot's Redis health indicator is active")
					.contains("management.health.redis.enabled=false");
			});
	}

	@Test
	void saysNothingOfRedisHealthWhenItIsSwitchedOff(CapturedOutput output) {
		enabled().withConfiguration(AutoConfigurations.of(DataRedisHealthContributorAutoConfiguration.class))
			.withPropertyValues("management.health.redis.enabled=false")
			.run(context -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("redisHealthContributor");
				assertThat(output.getAll()).doesNotContain("Redis health indicator is active");
			});
	}

	@Test
	void isOffByDefault() {
		runner.run(context -> assertThat(context).doesNotHaveBean(FleetSync.class)
			.doesNotHaveBean(SharedStoreStatus.class));
	}

	@Test
	void sharesThroughRedisWhenEnabled() {
		enabled().run(context -> {
			assertThat(context).hasSingleBean(FleetSync.class)
				.hasSingleBean(SharedStoreMetrics.class)
				.doesNotHaveBean(FleetWindow.class);
			assertThat(context.getBean(SharedStoreStatus.class).up()).isTrue();
			assertThat(context.getBean(SharedStoreStatus.class).lastSync()).isNotNull();
		});
	}

	@Test
	void addsTheFleetWindowWhenAskedTo() {
		enabled().withPropertyValues("breaker.shared.redis.fleet-window=true")
			.run(context -> assertThat(context).hasSingleBean(FleetWindow.class));
	}

	@Test
	void refusesToStartWithoutLettuceRatherThanRunAlone() {
		enabled().withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(RedisClient.class))
			.run(context -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Invalid value 'true' for property 'breaker.shared.redis.enabled'; "
						+ "allowed: false, unless Spring Data Redis with Lettuce is on the classpath "
						+ "(org.springframework.boot:spring-boot-starter-data-redis; "
						+ "io.lettuce.core.RedisClient is missing)"));
	}

	@Test
	void needsABreakerRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisBreakerAutoConfiguration.class))
			.withPropertyValues("breaker.shared.redis.enabled=true")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(FleetSync.class));
	}

	@Test
	void sharesTheStartersRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class, DataRedisAutoConfiguration.class,
					RedisBreakerAutoConfiguration.class))
			.withPropertyValues("breaker.shared.redis.enabled=true", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + redis.port())
			.run(context -> assertThat(context).hasSingleBean(BreakerRegistry.class).hasSingleBean(FleetSync.class));
	}

	@Test
	void breakerEnabledFalseSwitchesSharingOffToo() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class, DataRedisAutoConfiguration.class,
					RedisBreakerAutoConfiguration.class))
			.withPropertyValues("breaker.enabled=false", "breaker.shared.redis.enabled=true")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(FleetSync.class));
	}

	@Test
	void theUsersOwnStatusBeanWins() {
		SharedStoreStatus own = new SharedStoreStatus("mine", Clock.systemUTC());
		enabled().withBean(SharedStoreStatus.class, () -> own)
			.run(context -> assertThat(context.getBean(FleetSync.class).replicaId()).isEqualTo("mine"));
	}

	@Test
	void theReplicaIdIsConfigurable() {
		enabled().withPropertyValues("breaker.shared.redis.replica-id=checkout-7")
			.run(context -> assertThat(context.getBean(SharedStoreStatus.class).replicaId()).isEqualTo("checkout-7"));
	}

	/**
	 * Peers drop a message whose replica id is longer than 512 characters, so a longer id
	 * would leave this replica unheard: the store refused it only when it was built, with
	 * an exception naming no property.
	 */
	@Test
	void aReplicaIdLongerThanPeersTakeStopsStartUpNamingTheLimit() {
		String id = "checkout-\n" + "7".repeat(503);
		enabled().withPropertyValues("breaker.shared.redis.replica-id=" + id)
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessage("Invalid value 'checkout-\\n" + "7".repeat(110)
						+ "... (513 characters)' for property 'breaker.shared.redis.replica-id'; allowed: "
						+ REPLICA_ID_ALLOWED));
	}

	@Test
	void aReplicaIdOfTheLongestLengthPeersTakeStarts() {
		String id = "r".repeat(512);
		enabled().withPropertyValues("breaker.shared.redis.replica-id=" + id)
			.run(context -> assertThat(context.getBean(FleetSync.class).replicaId()).isEqualTo(id));
	}

	/**
	 * The probe-slot hash of an episode keys each holder's slots by its replica id, and
	 * keeps beside them the mark {@code ~wanted~} (when a replica with traffic last got
	 * no slot). A replica of that id would have its slots read as that mark (uncounted,
	 * so the fleet grants more probes than its limit) and overwritten by it, and would
	 * delete the mark as it gives its slots up. Ids starting and ending with {@code ~}
	 * are kept for such marks.
	 */
	@Test
	void aReplicaIdOfTheMarkOfWantedProbeSlotsStopsStartUpNamingTheProperty() {
		assertStopsStartUp("~wanted~", "~wanted~");
	}

	@Test
	void aReplicaIdOfTheFormOfAMarkIsRefusedEscaped() {
		assertStopsStartUp("~\n[31mforged~", "~\\n[31mforged~");
	}

	/** {@code id} configured stops start-up, the value printed as {@code printed}. */
	private void assertStopsStartUp(String id, String printed) {
		enabled().withPropertyValues("breaker.shared.redis.replica-id=" + id)
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessage("Invalid value '" + printed + "' for property 'breaker.shared.redis.replica-id'; allowed: "
						+ REPLICA_ID_ALLOWED));
	}

	@ParameterizedTest
	@ValueSource(strings = { "~", "~wanted", "wanted~", "a~wanted~b" })
	void aReplicaIdWithATildeThatIsNotOfAMarksFormStarts(String id) {
		enabled().withPropertyValues("breaker.shared.redis.replica-id=" + id)
			.run(context -> assertThat(context.getBean(FleetSync.class).replicaId()).isEqualTo(id));
	}

	@Test
	void theGeneratedReplicaIdEndsInItsRandomSuffixSoNeverHasTheFormOfAMark() {
		enabled()
			.run(context -> assertThat(context.getBean(FleetSync.class).replicaId()).matches(".+-[0-9]+-[0-9a-f]{8}")
				.doesNotEndWith("~"));
	}

	@Test
	void springBootReportsAReplicaIdOfAMarksFormWhenTheApplicationFailsToStart(CapturedOutput output) {
		SpringApplication application = new SpringApplication(FleetApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> application.run("--breaker.shared.redis.enabled=true",
					"--spring.data.redis.port=" + redis.port(), "--breaker.shared.redis.replica-id=~wanted~"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("    Property: breaker.shared.redis.replica-id")
			.contains("    Value:    '~wanted~'")
			.contains("    Allowed:  " + REPLICA_ID_ALLOWED);
	}

	@Test
	void springBootReportsATooLongReplicaIdWhenTheApplicationFailsToStart(CapturedOutput output) {
		SpringApplication application = new SpringApplication(FleetApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(
				() -> application.run("--breaker.shared.redis.enabled=true", "--spring.data.redis.port=" + redis.port(),
						"--breaker.shared.redis.replica-id=" + "r".repeat(600)));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("    Property: breaker.shared.redis.replica-id")
			.contains("    Value:    '" + "r".repeat(120) + "... (600 characters)'")
			.contains("    Allowed:  " + REPLICA_ID_ALLOWED)
			.doesNotContain("r".repeat(121));
	}

	private static final String REPLICA_ID_ALLOWED = "empty (host name, process id and a random suffix), "
			+ "or at most 512 characters: the other replicas drop a message with a longer replica id; "
			+ "not starting and ending with '~': the fleet's hashes keep marks such as '~wanted~' beside replica ids";

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ BreakerAutoConfiguration.class, DataRedisAutoConfiguration.class,
			RedisBreakerAutoConfiguration.class })
	static class FleetApplication {

	}

	@Test
	void aZeroTimeoutStopsStartUpNamingTheProperty() {
		enabled().withPropertyValues("breaker.shared.redis.timeout=0s")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessage(
						"Invalid value '0s' for property 'breaker.shared.redis.timeout'; allowed: a positive duration"));
	}

	/**
	 * Past 292 years a duration's nanoseconds overflow (the store's timers threw an
	 * ArithmeticException naming nothing); below that, a reconnect or flush interval of
	 * decades leaves a replica blind to the fleet after its first Redis blip, and a
	 * start-up wait of decades hangs start-up while Redis is down. At the short end, a
	 * reconnect interval of 20ms or less was refused by Lettuce's reconnect delay and a
	 * flush interval under a millisecond by the flush timer, both naming nothing, and a
	 * command timeout under a millisecond left every command no time at all.
	 */
	@ParameterizedTest
	@CsvSource({ "timeout, 500us, 1ms", "reconnect-interval, 20ms, 100ms", "flush-interval, 500us, 1ms",
			"startup-sync-timeout, , 0s" })
	@Timeout(120)
	void aDurationOutsideItsRangeStopsStartUpNamingTheProperty(String setting, String tooShort, String shortest) {
		String property = "breaker.shared.redis." + setting;
		if (tooShort != null) {
			refused(property, tooShort, "at least " + shortest);
		}
		refused(property, "25h", "at most 24h");
		refused(property, "200000d", "at most 24h");
		for (String allowed : new String[] { shortest, "24h" }) {
			enabled().withPropertyValues(property + "=" + allowed, "breaker.shared.redis.fleet-window=true")
				.run(context -> assertThat(context).hasNotFailed());
		}
	}

	private void refused(String property, String value, String allowed) {
		enabled().withPropertyValues(property + "=" + value, "breaker.shared.redis.fleet-window=true")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessageStartingWith("Invalid value '")
				.hasMessageEndingWith("' for property '" + property + "'; allowed: " + allowed));
	}

	@Test
	void aQuorumBelowOneStopsStartUpNamingTheProperty() {
		enabled().withPropertyValues("breaker.shared.redis.quorum=0")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessage("Invalid value '0' for property 'breaker.shared.redis.quorum'; allowed: 1 or more "
						+ "(1: any replica's trip opens the fleet)"));
	}

	@Test
	void aShortSigningKeyStopsStartUpWithoutEchoingIt() {
		enabled().withPropertyValues("breaker.shared.redis.signing-key=hunter2!!")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessage(
						"Invalid value '<9 characters>' for property 'breaker.shared.redis.signing-key'; allowed: empty "
								+ "(no signing), or a secret of at least 16 characters shared by every replica")
				.message()
				.doesNotContain("hunter2"));
	}

	@Test
	void theQuorumAndTheSigningKeyReachTheFleet() {
		enabled()
			.withPropertyValues("breaker.shared.redis.quorum=3",
					"breaker.shared.redis.signing-key=a-secret-of-the-fleet")
			.run(context -> {
				assertThat(context.getBean(FleetSync.class).settings().quorum()).isEqualTo(3);
				assertThat(context.getBean(FleetSync.class).settings().signingKey()).isEqualTo("a-secret-of-the-fleet");
				assertThat(context.getBean(FleetSync.class).settings().toString())
					.doesNotContain("a-secret-of-the-fleet");
			});
	}

	@Test
	void startsEvenWhenRedisIsUnreachable() {
		runner
			.withPropertyValues("breaker.shared.redis.enabled=true", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=1", "breaker.shared.redis.startup-sync-timeout=200ms")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(SharedStoreStatus.class).up()).isFalse();
				assertThat(context.getBean(SharedStoreStatus.class).errors()).isPositive();
			});
	}

	@Test
	void metersSayWhetherTheStoreIsUpAndCountErrors() {
		runner
			.withPropertyValues("breaker.shared.redis.enabled=true", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=1", "breaker.shared.redis.startup-sync-timeout=0s")
			.run(context -> {
				MeterRegistry meters = new SimpleMeterRegistry();
				context.getBean(SharedStoreMetrics.class).bindTo(meters);
				await().atMost(Duration.ofSeconds(3))
					.until(() -> meters.get("breaker.shared.store.errors").functionCounter().count() > 0);
				assertThat(meters.get("breaker.shared.store.up").gauge().value()).isZero();
			});
		enabled().run(context -> {
			MeterRegistry meters = new SimpleMeterRegistry();
			context.getBean(SharedStoreMetrics.class).bindTo(meters);
			assertThat(meters.get("breaker.shared.store.up").gauge().value()).isEqualTo(1);
		});
	}

	/**
	 * Fleet mode with {@code breaker.shared.redis.enabled=value}: the switches read their
	 * value as Spring's binder does, so a value the binder takes as true never leaves a
	 * replica running alone without a word.
	 */
	private ApplicationContextRunner switchedTo(String value) {
		return runner.withPropertyValues("breaker.shared.redis.enabled=" + value, "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redis.port());
	}

	@ParameterizedTest
	@ValueSource(strings = { "on", "yes", "1", " TRUE " })
	void fleetModeIsOnForEveryValueSpringReadsAsTrue(String value) {
		switchedTo(value).run((context) -> assertThat(context).as("breaker.shared.redis.enabled='%s' shared?", value)
			.hasNotFailed()
			.hasSingleBean(FleetSync.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "off", "no", "0", "FALSE" })
	void fleetModeIsOffForEveryValueSpringReadsAsFalse(String value) {
		switchedTo(value).run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(FleetSync.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "on", "yes", "1", " TRUE " })
	void theFleetWindowIsOnForEveryValueSpringReadsAsTrue(String value) {
		enabled().withPropertyValues("breaker.shared.redis.fleet-window=" + value)
			.run((context) -> assertThat(context).as("breaker.shared.redis.fleet-window='%s' shared?", value)
				.hasNotFailed()
				.hasSingleBean(FleetWindow.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "off", "no", "0" })
	void theFleetWindowIsOffForEveryValueSpringReadsAsFalse(String value) {
		enabled().withPropertyValues("breaker.shared.redis.fleet-window=" + value)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(FleetSync.class)
				.doesNotHaveBean(FleetWindow.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "ture", "" })
	void aFleetSwitchNeitherTrueNorFalseStopsStartUp(String value) {
		enabled().withPropertyValues("breaker.shared.redis.fleet-window=" + value)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Invalid value '" + value
						+ "' for property 'breaker.shared.redis.fleet-window'; allowed: true or false"));
	}

}
