package dev.breaker.benchmarks.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A client that sends {@code PING} on its own connection every millisecond and keeps the
 * longest answer: while Redis runs one long command, every other client waits, so the
 * prober's longest wait bounds how long Redis was held up (from above: on a busy machine
 * it also includes time the prober or Redis waited for a core).
 */
final class PingProber implements AutoCloseable {

	private static final byte[] PING = "PING\r\n".getBytes(StandardCharsets.US_ASCII);

	private final Socket socket;

	private final Thread thread;

	private volatile boolean running = true;

	private long[] micros = new long[1 << 16];

	private int count;

	private long sent;

	PingProber(int port) {
		try {
			socket = new Socket();
			socket.setTcpNoDelay(true);
			socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		thread = new Thread(this::probe, "redis-ping-prober");
		thread.setDaemon(true);
		thread.setPriority(Thread.MAX_PRIORITY);
		thread.start();
	}

	private void probe() {
		byte[] reply = new byte[7]; // +PONG\r\n
		try {
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			while (running) {
				long start = System.nanoTime();
				out.write(PING);
				out.flush();
				for (int read = 0; read < reply.length;) {
					int n = in.read(reply, read, reply.length - read);
					if (n < 0) {
						return;
					}
					read += n;
				}
				record((System.nanoTime() - start) / 1_000);
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			}
		}
		catch (IOException closed) {
			// stopped
		}
	}

	private synchronized void record(long latencyMicros) {
		if (count == micros.length) {
			micros = Arrays.copyOf(micros, count * 2);
		}
		micros[count++] = latencyMicros;
		sent++;
	}

	/**
	 * How many PINGs were answered since the start (Redis counts them under
	 * {@code ping}).
	 */
	synchronized long sent() {
		return sent;
	}

	/** The answers since the last drain, and starts again from none. */
	synchronized Latencies drain() {
		long[] sorted = Arrays.copyOf(micros, count);
		count = 0;
		Arrays.sort(sorted);
		return new Latencies(sorted);
	}

	/** PING round trips in microseconds, sorted. */
	record Latencies(long[] sorted) {

		int samples() {
			return sorted.length;
		}

		long max() {
			return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
		}

		long at(double quantile) {
			if (sorted.length == 0) {
				return 0;
			}
			int index = (int) Math.ceil(quantile * sorted.length) - 1;
			return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
		}

		long over(long thresholdMicros) {
			return Arrays.stream(sorted).filter(m -> m > thresholdMicros).count();
		}
	}

	@Override
	public void close() {
		running = false;
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
		try {
			thread.join(1_000);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

}
