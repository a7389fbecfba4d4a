package dev.breaker.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} process (Debian's 7.x on the PATH, or the binary named by
 * {@code -Dbreaker.test.redis-server}) on a loopback port, as a plain server, a Cluster
 * node or a Sentinel: what production runs, started by the test.
 *
 * <p>
 * The server runs under a small shell that kills it ({@code SIGKILL}) as soon as its
 * standard input closes, so it dies with the test JVM however that ends, and
 * {@link #kill()} is a real crash: no shutdown, no save.
 */
public final class RedisProcess implements AutoCloseable {

	private static final String BINARY = binary();

	private final Path dir;

	private final int port;

	private final boolean sentinel;

	private final boolean plainPort;

	private final List<String> config;

	private Process shell;

	private long pid;

	private RedisProcess(Path dir, int port, boolean sentinel, boolean plainPort, List<String> config) {
		this.dir = dir;
		this.port = port;
		this.sentinel = sentinel;
		this.plainPort = plainPort;
		this.config = config;
	}

	/** A server on a free port; {@code config} lines are added to its redis.conf. */
	public static RedisProcess server(Path dir, String... config) {
		return start(dir, freePort(), false, true, List.of(config));
	}

	/**
	 * A server that listens for TLS only, on a free port; {@code config} holds the tls-*
	 * lines.
	 */
	public static RedisProcess tlsServer(Path dir, String... config) {
		int port = freePort();
		List<String> lines = new ArrayList<>(List.of("port 0", "tls-port " + port));
		lines.addAll(List.of(config));
		return start(dir, port, false, false, lines);
	}

	/**
	 * A Sentinel on a free port; {@code config} holds its {@code sentinel monitor …}
	 * lines.
	 */
	public static RedisProcess sentinel(Path dir, String... config) {
		return start(dir, freePort(), true, true, List.of(config));
	}

	private static RedisProcess start(Path dir, int port, boolean sentinel, boolean plainPort, List<String> config) {
		RedisProcess process = new RedisProcess(dir, port, sentinel, plainPort, config);
		process.writeConfig();
		process.launch();
		return process;
	}

	public int port() {
		return port;
	}

	public String address() {
		return "127.0.0.1:" + port;
	}

	public Path dir() {
		return dir;
	}

	public long pid() {
		return pid;
	}

	public boolean running() {
		return shell != null && shell.isAlive();
	}

	/**
	 * Crashes the server ({@code SIGKILL}): its clients see their connections drop,
	 * nothing is saved.
	 */
	public synchronized void kill() {
		if (shell == null) {
			return;
		}
		try {
			// the shell then kills the server with SIGKILL
			shell.getOutputStream().close();
			if (!shell.waitFor(10, TimeUnit.SECONDS)) {
				shell.destroyForcibly();
			}
		}
		catch (IOException e) {
			shell.destroyForcibly();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		shell = null;
		awaitPortFree();
	}

	/**
	 * Starts the server again, with the configuration it has now (a Sentinel or a Cluster
	 * node rewrites its own).
	 */
	public synchronized void restart() {
		kill();
		launch();
	}

	private void writeConfig() {
		List<String> lines = new ArrayList<>();
		if (plainPort) {
			lines.add("port " + port);
		}
		lines.addAll(List.of("bind 127.0.0.1", "protected-mode no", "daemonize no", "dir " + dir,
				"logfile " + dir.resolve("redis.log")));
		if (!sentinel) {
			lines.addAll(List.of("save \"\"", "appendonly no"));
		}
		lines.addAll(config);
		try {
			Files.createDirectories(dir);
			Files.write(conf(), lines, StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private Path conf() {
		return dir.resolve(sentinel ? "sentinel.conf" : "redis.conf");
	}

	private synchronized void launch() {
		if (BINARY == null) {
			throw new IllegalStateException(
					"the topology tests need redis-server 7 or later on the PATH (Debian: apt-get install "
							+ "redis-server; .ci/run installs it), or -Dbreaker.test.redis-server=<path>");
		}
		List<String> command = new ArrayList<>(List.of("sh", "-c",
				"\"$0\" \"$1\" $2 & pid=$!; echo $pid; read ignored; exec 2>/dev/null; kill -9 $pid; wait $pid", BINARY,
				conf().toString(), sentinel ? "--sentinel" : ""));
		try {
			shell = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
			BufferedReader out = new BufferedReader(
					new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
			pid = Long.parseLong(out.readLine().trim());
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not start " + BINARY, e);
		}
		awaitListening();
	}

	private void awaitListening() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			if (!shell.isAlive()) {
				throw new IllegalStateException(
						"redis-server on port " + port + " exited; see " + dir.resolve("redis.log"));
			}
			if (answers()) {
				return;
			}
			pause(20);
		}
		throw new IllegalStateException(
				"redis-server on port " + port + " did not start; see " + dir.resolve("redis.log"));
	}

	/**
	 * Whether the server accepts a connection (and, without TLS, answers a PING, even if
	 * only to ask for a password).
	 */
	private boolean answers() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
			if (!plainPort) {
				return true;
			}
			socket.setSoTimeout(500);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			int first = socket.getInputStream().read();
			return first == '+' || first == '-';
		}
		catch (IOException notYet) {
			return false;
		}
	}

	private void awaitPortFree() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (System.nanoTime() < deadline) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 100);
			}
			catch (IOException closed) {
				return;
			}
			pause(10);
		}
	}

	@Override
	public void close() {
		kill();
	}

	static void pause(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	/**
	 * {@code -Dbreaker.test.redis-server}, else the first redis-server on the PATH; it
	 * must be Redis 7 or later.
	 */
	private static String binary() {
		String configured = System.getProperty("breaker.test.redis-server");
		List<Path> candidates = new ArrayList<>();
		if (configured != null) {
			candidates.add(Path.of(configured));
		}
		else {
			for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
				candidates.add(Path.of(dir, "redis-server"));
			}
		}
		for (Path candidate : candidates) {
			if (Files.isExecutable(candidate)) {
				try {
					Process version = new ProcessBuilder(candidate.toString(), "--version").redirectErrorStream(true)
						.start();
					String out = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
					version.waitFor(10, TimeUnit.SECONDS);
					int at = out.indexOf("v=");
					int major = at < 0 ? 0 : Integer.parseInt(out.substring(at + 2, out.indexOf('.', at)));
					if (major < 7) {
						throw new IllegalStateException(
								candidate + " is Redis " + out.trim() + "; the topology tests need 7 or later");
					}
					return candidate.toString();
				}
				catch (IOException e) {
					throw new UncheckedIOException(e);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(e);
				}
			}
		}
		return null;
	}

	/** A free loopback port (and, for Cluster nodes, another for the cluster bus). */
	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

}
