package dev.breaker.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates made for one test run with the JDK's own {@code keytool},
 * written as PEM files for {@code redis-server} and for a Spring Boot PEM SSL bundle: one
 * for the server (valid for 127.0.0.1 and localhost) and one for the client.
 */
public final class TestCertificates {

	private static final char[] STORE_PASSWORD = "changeit".toCharArray();

	private final Path dir;

	private TestCertificates(Path dir) {
		this.dir = dir;
	}

	/** Makes a server and a client key pair with their certificates under {@code dir}. */
	public static TestCertificates create(Path dir) {
		TestCertificates certificates = new TestCertificates(dir);
		certificates.make("server", "CN=localhost", "SAN=ip:127.0.0.1,dns:localhost");
		certificates.make("client", "CN=checkout", null);
		return certificates;
	}

	public Path serverCertificate() {
		return dir.resolve("server.crt");
	}

	public Path serverKey() {
		return dir.resolve("server.key");
	}

	public Path clientCertificate() {
		return dir.resolve("client.crt");
	}

	public Path clientKey() {
		return dir.resolve("client.key");
	}

	/** The certificates the server accepts client certificates from. */
	public Path clientAuthority() {
		return dir.resolve("client.crt");
	}

	private void make(String name, String subject, String extension) {
		Path store = dir.resolve(name + ".p12");
		List<String> command = new java.util.ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias",
						name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", subject, "-storetype",
						"PKCS12", "-keystore", store.toString(), "-storepass", new String(STORE_PASSWORD)));
		if (extension != null) {
			command.addAll(List.of("-ext", extension));
		}
		try {
			Files.createDirectories(dir);
			Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
				throw new IllegalStateException("keytool failed: " + output);
			}
			KeyStore keys = KeyStore.getInstance("PKCS12");
			try (InputStream in = Files.newInputStream(store)) {
				keys.load(in, STORE_PASSWORD);
			}
			Key key = keys.getKey(name, STORE_PASSWORD);
			Certificate certificate = keys.getCertificate(name);
			Files.writeString(dir.resolve(name + ".key"), pem("PRIVATE KEY", key.getEncoded()));
			Files.writeString(dir.resolve(name + ".crt"), pem("CERTIFICATE", certificate.getEncoded()));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (GeneralSecurityException e) {
			throw new IllegalStateException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
				+ "\n-----END " + type + "-----\n";
	}

}
