package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.breaker.core.State;
import dev.breaker.redis.FleetAcl;
import dev.breaker.redis.RedisProcess;
import dev.breaker.redis.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fleet mode over TLS ({@code spring.data.redis.ssl.bundle}): a {@code redis-server} that
 * listens on a TLS port only and wants a client certificate, with certificates made for
 * the run; the replicas trust the server and present their own certificate through a
 * Spring Boot PEM SSL bundle, and log in as the production ACL user of
 * docs/fleet-mode.md.
 */
class FleetTlsTests {

	private static Path dir;

	private static TestCertificates certificates;

	private static RedisProcess redis;

	@RegisterExtension
	final Replicas replicas = Replicas.at(() -> List.of("spring.data.redis.host=127.0.0.1",
			"spring.data.redis.port=" + redis.port(), "spring.data.redis.username=checkout",
			"spring.data.redis.password=" + FleetAcl.PASSWORD, "breaker.shared.redis.quorum=1"));

	@BeforeAll
	static void startRedis() throws IOException {
		dir = Files.createTempDirectory("breaker-tls");
		certificates = TestCertificates.create(dir.resolve("certificates"));
		redis = RedisProcess.tlsServer(dir.resolve("redis"), "tls-cert-file " + certificates.serverCertificate(),
				"tls-key-file " + certificates.serverKey(), "tls-ca-cert-file " + certificates.clientAuthority(),
				"tls-auth-clients yes", "user checkout " + FleetAcl.RULES);
	}

	@AfterAll
	static void stopRedis() {
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void replicasShareOverTlsWithTheCertificatesOfTheSslBundle() {
		// a TLS handshake can take longer than the 500 ms connect timeout on a loaded
		// machine: that would be counted as an error, though not one of TLS
		replicas.properties(Replicas.PATIENT_PING, "breaker.shared.redis.timeout=5s",
				"breaker.shared.redis.startup-sync-timeout=15s");
		Replica a = replicas.start("a", bundle());
		Replica b = replicas.start("b", bundle());
		b.breaker("payments");

		failTimes(a.breaker("payments"), 3);

		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.OPEN);
		a.breaker("payments").reset();
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.CLOSED);
		assertThat(List.of(a, b)).allSatisfy(r -> {
			assertThat(r.status().up()).isTrue();
			assertThat(r.status().errors()).as("errors, the last: %s", r.status().lastError()).isZero();
		});
	}

	@Test
	void aServerTheBundleDoesNotTrustIsNeverSharedWithAndTheStatusSaysWhy() {
		// TLS on, but the JVM's default trust: the test's self-signed server certificate
		// is not trusted
		Replica a = replicas.start("a", "spring.data.redis.ssl.enabled=true",
				"breaker.shared.redis.startup-sync-timeout=500ms");

		await().atMost(Duration.ofSeconds(3)).until(() -> a.status().errors() > 0);
		assertThat(a.status().up()).isFalse();
		assertThat(a.status().lastError()).isNotBlank();
		failTimes(a.breaker("payments"), 3);
		assertThat(a.breaker("payments").state()).as("the breaker works alone").isEqualTo(State.OPEN);
	}

	private static String[] bundle() {
		return new String[] { "spring.data.redis.ssl.enabled=true", "spring.data.redis.ssl.bundle=fleet",
				"spring.ssl.bundle.pem.fleet.truststore.certificate=file:" + certificates.serverCertificate(),
				"spring.ssl.bundle.pem.fleet.keystore.certificate=file:" + certificates.clientCertificate(),
				"spring.ssl.bundle.pem.fleet.keystore.private-key=file:" + certificates.clientKey() };
	}

}
