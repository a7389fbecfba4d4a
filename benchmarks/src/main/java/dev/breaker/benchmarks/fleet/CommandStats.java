package dev.breaker.benchmarks.fleet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Redis executed, by command, from {@code INFO commandstats} deltas (no
 * {@code MONITOR}, which would itself load Redis). Redis counts a script once under
 * {@code evalsha}/{@code eval} and once more for each command the script calls inside, so
 * {@link Delta#total()} is the work Redis did, and {@link Delta#scripts()} the scripts
 * the replicas ran. This class's own {@code INFO} calls are taken out; nothing else is
 * (start nothing else on the Redis).
 */
final class CommandStats implements AutoCloseable {

	private final Socket socket;

	private final OutputStream out;

	private final BufferedReader in;

	CommandStats(int port) {
		try {
			socket = new Socket();
			socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
			out = socket.getOutputStream();
			in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** The calls of every command so far, by name. */
	synchronized Map<String, Long> snapshot() {
		try {
			out.write("INFO commandstats\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			String header = in.readLine(); // $<length>
			if (header == null || !header.startsWith("$")) {
				throw new IllegalStateException("unexpected INFO reply: " + header);
			}
			char[] body = new char[Integer.parseInt(header.substring(1)) + 2];
			for (int read = 0; read < body.length;) {
				int n = in.read(body, read, body.length - read);
				if (n < 0) {
					throw new IOException("Redis closed the connection");
				}
				read += n;
			}
			Map<String, Long> calls = new TreeMap<>();
			for (String line : new String(body).split("\r\n")) {
				// cmdstat_evalsha:calls=12,usec=345,usec_per_call=28.75,...
				if (line.startsWith("cmdstat_")) {
					int colon = line.indexOf(':');
					int start = line.indexOf("calls=", colon) + "calls=".length();
					int end = line.indexOf(',', start);
					calls.put(line.substring("cmdstat_".length(), colon), Long.parseLong(line.substring(start, end)));
				}
			}
			return calls;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/**
	 * The commands executed between two snapshots, without the earlier snapshot's own
	 * {@code INFO}.
	 */
	static Delta between(Map<String, Long> before, Map<String, Long> after) {
		Map<String, Long> delta = new TreeMap<>();
		after.forEach((command, calls) -> {
			long n = calls - before.getOrDefault(command, 0L) - ("info".equals(command) ? 1 : 0);
			if (n > 0) {
				delta.put(command, n);
			}
		});
		return new Delta(delta);
	}

	/** Commands executed, by name. */
	record Delta(Map<String, Long> calls) {

		long total() {
			return calls.values().stream().mapToLong(Long::longValue).sum();
		}

		long scripts() {
			return calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
		}

		/**
		 * Each command's count divided by {@code per} (e.g. seconds × replicas), two
		 * decimals, by name.
		 */
		String per(double per) {
			StringBuilder text = new StringBuilder();
			calls.forEach(
					(command, n) -> text.append(String.format(java.util.Locale.ROOT, " %s %.2f", command, n / per)));
			return text.toString().trim();
		}
	}

	@Override
	public void close() {
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
	}

}
