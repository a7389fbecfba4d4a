package dev.breaker.benchmarks.fleet;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.breaker.autoconfigure.redis.Replica;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.redis.FleetKeys;
import dev.breaker.redis.RedisServerHarness;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * A replica starting while the fleet holds 100,000 circuits open: how long its start-up
 * read of the fleet's state takes, how many of its breakers it opened, and whether Redis
 * was ever held up meanwhile: the longest answer of a client that PINGs every millisecond
 * (against the same prober on an idle Redis just before, which is what this busy machine
 * alone costs), Redis's slow log (every command of 1 ms or more) and its latency monitor,
 * and the commands the read made Redis execute ({@code INFO commandstats} deltas). On a
 * busy machine Redis itself is descheduled now and then, mid-command, which the slow log
 * and the prober count as well; so a control follows: as many one-key scripts as the read
 * ran, sent 200 at a time by one client, measured the same way. Whatever the read shows
 * beyond the control is the read's.
 *
 * <pre>java -cp ... dev.breaker.benchmarks.fleet.StartupReconciliation [circuits=100000] [owned=100000] [junk=0] [redis-nice]</pre>
 * {@code owned}: how many of the open circuits the replica has a breaker for;
 * {@code junk}: unrelated keys besides; {@code redis-nice}: if given, the Redis process
 * is {@code renice}d to it (e.g. -10, as root), so that on a busy machine other processes
 * preempt it less often mid-command.
 */
public final class StartupReconciliation {

	private static final long SLOW_MICROS = 1_000;

	private static final long BLOCK_LIMIT_MICROS = 50_000;

	private static final ProtocolKeyword LATENCY = new ProtocolKeyword() {
		@Override
		public byte[] getBytes() {
			return "LATENCY".getBytes(StandardCharsets.US_ASCII);
		}

		@Override
		public String toString() {
			return "LATENCY";
		}
	};

	private StartupReconciliation() {
	}

	public static void main(String[] args) throws Exception {
		int circuits = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
		int owned = args.length > 1 ? Integer.parseInt(args[1]) : circuits;
		int junk = args.length > 2 ? Integer.parseInt(args[2]) : 0;
		String nice = args.length > 3 ? args[3] : null;
		FleetKeys keys = new FleetKeys("breaker:");
		try (RedisServerHarness redis = RedisServerHarness.start()) {
			RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", redis.port()));
			try (StatefulRedisConnection<String, String> connection = client.connect()) {
				RedisCommands<String, String> admin = connection.sync();
				write(connection, keys, circuits, junk);
				if (nice != null) {
					renice(admin, Integer.parseInt(nice));
				}
				long dbsize = admin.dbsize();
				admin.configSet("slowlog-log-slower-than", Long.toString(SLOW_MICROS));
				admin.configSet("slowlog-max-len", "100000");
				admin.configSet("latency-monitor-threshold", Long.toString(SLOW_MICROS / 1_000));

				BreakerConfig config = BreakerConfig.builder()
					.maxOpenWait(Duration.ofMinutes(10))
					.ticker(Ticker.system())
					.build();
				BreakerRegistry registry = BreakerRegistry.builder().defaults(config).build();
				List<Breaker> mine = new ArrayList<>(owned);
				for (int i = 0; i < owned; i++) {
					mine.add(registry.breaker(name(i)));
				}
				System.out.printf(Locale.ROOT,
						"start-up read with %,d open circuits in Redis (%,d keys in all, %,d unrelated); the replica "
								+ "has %,d of those breakers; %d cores, load average %.2f%n",
						circuits, dbsize, junk, owned, Runtime.getRuntime().availableProcessors(),
						ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
				System.gc();
				try (PingProber prober = new PingProber(redis.port());
						CommandStats stats = new CommandStats(redis.port())) {
					TimeUnit.SECONDS.sleep(3);
					PingProber.Latencies idle = prober.drain();
					admin.slowlogReset();
					admin.dispatch(LATENCY, new ArrayOutput<>(StringCodec.UTF8),
							new CommandArgs<>(StringCodec.UTF8).add("RESET"));
					Map<String, Long> before = stats.snapshot();
					long pingsBefore = prober.sent();
					long start = System.nanoTime();
					try (Replica replica = Replica.start("late", registry, "spring.data.redis.host=127.0.0.1",
							"spring.data.redis.port=" + redis.port(), "logging.level.root=WARN",
							"breaker.shared.redis.startup-sync-timeout=600s", "breaker.shared.redis.timeout=5s")) {
						long synced = System.nanoTime();
						PingProber.Latencies during = prober.drain();
						CommandStats.Delta read = CommandStats.between(before, stats.snapshot());
						long pings = prober.sent() - pingsBefore;
						long open = mine.stream().filter(b -> b.state() == State.OPEN).count();
						double seconds = (synced - start) / 1e9;
						boolean lastSync = replica.status().lastSync() != null;
						System.out.printf(Locale.ROOT,
								"  context start with the start-up read: %.2f s (lastSync %s); %,d of the replica's "
										+ "%,d breakers started OPEN; %d breakers mirrored without being here%n",
								seconds, lastSync ? "set" : "NOT set", open, owned, replica.sync().fleetOnlyBreakers());
						long pingCalls = read.calls().getOrDefault("ping", 0L);
						System.out.printf(Locale.ROOT,
								"  commands Redis executed for the read (prober's %,d PINGs left out): %,d, of them %,d "
										+ "scripts (%s)%n",
								pings, read.total() - Math.min(pings, pingCalls), read.scripts(), read.per(1));
						Slow slow = slowLog(admin);
						String latency = String.valueOf(admin.dispatch(LATENCY, new ArrayOutput<>(StringCodec.UTF8),
								new CommandArgs<>(StringCodec.UTF8).add("LATEST")));
						System.out.println("  Redis slow log (commands of 1 ms or more): " + slow.entries()
								+ " entries, " + slow.over50() + " of 50 ms or more"
								+ (slow.entries() == 0 ? "" : String.format(Locale.ROOT, ", the longest %.2f ms: %s",
										slow.maxMicros() / 1e3, slow.longest())));
						System.out
							.println("  Redis LATENCY LATEST (events of 1 ms or more: name, at, latest ms, max ms): "
									+ latency);
						Control control = control(connection, admin, prober, keys, circuits, read.scripts());
						table(circuits, owned, seconds, open, read, pings, pingCalls, idle, during, slow, control);
						if (!lastSync || open != Math.min(owned, circuits)) {
							throw new IllegalStateException(
									"the start-up read did not open every breaker that is open in Redis");
						}
					}
				}
			}
			finally {
				client.shutdown();
			}
		}
	}

	private static void table(int circuits, int owned, double seconds, long open, CommandStats.Delta read, long pings,
			long pingCalls, PingProber.Latencies idle, PingProber.Latencies during, Slow slow, Control control) {
		System.out.println();
		System.out.printf(Locale.ROOT, "| start-up reconciliation, %,d open circuits | result |%n", circuits);
		System.out.println("|---|---|");
		System.out.printf(Locale.ROOT,
				"| replica's context start, start-up read included | %.1f s (%,.0f circuits/s) |%n", seconds,
				circuits / seconds);
		System.out.printf(Locale.ROOT, "| breakers started OPEN | %,d of %,d |%n", open, owned);
		System.out.printf(Locale.ROOT, "| commands Redis executed for the read | %,d (%,d scans, %,d scripts) |%n",
				read.total() - Math.min(pings, pingCalls), read.calls().getOrDefault("scan", 0L), read.scripts());
		System.out.printf(Locale.ROOT,
				"| slow log during the read: commands of >= 1 ms / >= 50 ms, the longest | %s |%n", slow.text());
		System.out.printf(Locale.ROOT, "| PING every 1 ms during the read: p50 / p99 / p99.9 / max | %s |%n",
				quantiles(during));
		System.out.printf(Locale.ROOT, "| PINGs over 50 ms during the read | %d of %,d |%n",
				during.over(BLOCK_LIMIT_MICROS), during.samples());
		System.out.printf(Locale.ROOT, "| control: the same PING on the idle Redis before the read | %s |%n",
				quantiles(idle));
		System.out.printf(Locale.ROOT,
				"| control: %,d one-key scripts, 200 at a time, one client (%.1f s): slow log | %s |%n",
				control.scripts(), control.seconds(), control.slow().text());
		System.out.printf(Locale.ROOT, "| control: PING during those scripts: p50 / p99 / p99.9 / max | %s |%n",
				quantiles(control.pings()));
		System.out.printf(Locale.ROOT, "| control: PINGs over 50 ms during those scripts | %d of %,d |%n",
				control.pings().over(BLOCK_LIMIT_MICROS), control.pings().samples());
	}

	/**
	 * The control: what as many trivial one-key scripts as the read ran, sent the same
	 * way, show on the machine that runs the benchmark.
	 */
	private record Control(long scripts, double seconds, Slow slow, PingProber.Latencies pings) {
	}

	private static Control control(StatefulRedisConnection<String, String> connection,
			RedisCommands<String, String> admin, PingProber prober, FleetKeys keys, int circuits, long scripts) {
		String sha = admin.scriptLoad("return redis.call('HGET', KEYS[1], 'state')");
		admin.slowlogReset();
		prober.drain();
		RedisAsyncCommands<String, String> async = connection.async();
		long start = System.nanoTime();
		List<RedisFuture<?>> pending = new ArrayList<>(200);
		for (long i = 0; i < scripts; i++) {
			pending.add(async.evalsha(sha, io.lettuce.core.ScriptOutputType.VALUE,
					keys.state(name((int) (i % Math.max(1, circuits))))));
			if (pending.size() == 200 || i == scripts - 1) {
				LettuceFutures.awaitAll(Duration.ofMinutes(1), pending.toArray(RedisFuture[]::new));
				pending.clear();
			}
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		PingProber.Latencies pings = prober.drain();
		return new Control(scripts, seconds, slowLog(admin), pings);
	}

	private static void renice(RedisCommands<String, String> admin, int nice) throws Exception {
		String pid = admin.info("server")
			.lines()
			.filter(l -> l.startsWith("process_id:"))
			.findFirst()
			.map(l -> l.substring("process_id:".length()).trim())
			.orElseThrow();
		Process renice = new ProcessBuilder("renice", "-n", Integer.toString(nice), "-p", pid).inheritIO().start();
		if (renice.waitFor() != 0) {
			throw new IllegalStateException("could not renice Redis (pid " + pid + ") to " + nice);
		}
		System.out.println("  Redis (pid " + pid + ") reniced to " + nice);
	}

	private static String quantiles(PingProber.Latencies l) {
		return String.format(Locale.ROOT, "%.2f / %.2f / %.2f / %.2f ms", l.at(0.5) / 1e3, l.at(0.99) / 1e3,
				l.at(0.999) / 1e3, l.max() / 1e3);
	}

	/**
	 * The slow log: how many entries, how many of 50 ms or more, the longest in
	 * microseconds, and that command (abbreviated).
	 */
	private record Slow(int entries, int over50, long maxMicros, String longest) {

		String text() {
			return entries == 0 ? "none of 1 ms or more"
					: String.format(Locale.ROOT, "%d / %d, %.2f ms", entries, over50, maxMicros / 1e3);
		}
	}

	private static Slow slowLog(RedisCommands<String, String> admin) {
		List<Object> slow = admin.slowlogGet(100_000);
		long max = 0;
		int over50 = 0;
		String worst = "";
		for (Object entry : slow) {
			List<?> fields = (List<?>) entry;
			long micros = ((Number) fields.get(2)).longValue();
			over50 += micros >= BLOCK_LIMIT_MICROS ? 1 : 0;
			if (micros > max) {
				max = micros;
				worst = abbreviate(String.valueOf(fields.get(3)));
			}
		}
		return new Slow(slow.size(), over50, max, worst);
	}

	private static void write(StatefulRedisConnection<String, String> connection, FleetKeys keys, int circuits,
			int junk) {
		RedisAsyncCommands<String, String> async = connection.async();
		connection.setAutoFlushCommands(false);
		List<RedisFuture<?>> pending = new ArrayList<>();
		for (int i = 0; i < circuits + junk; i++) {
			if (i < circuits) {
				String key = keys.state(name(i));
				pending.add(async.hset(key,
						Map.of("state", "OPEN", "episode", "e" + i, "ttl", "600000", "replica", "replica-" + (i % 10),
								"reason", "consecutive failures 5 >= 5 (2 replicas tripped, quorum 2)", "issued", "0",
								"sig", "")));
				pending.add(async.pexpire(key, 600_000));
			}
			else {
				pending.add(async.set("session:" + i, "x"));
			}
			if (pending.size() >= 2_000) {
				connection.flushCommands();
				LettuceFutures.awaitAll(Duration.ofMinutes(1), pending.toArray(RedisFuture[]::new));
				pending.clear();
			}
		}
		connection.flushCommands();
		LettuceFutures.awaitAll(Duration.ofMinutes(1), pending.toArray(RedisFuture[]::new));
		connection.setAutoFlushCommands(true);
	}

	private static String name(int i) {
		return String.format(Locale.ROOT, "tenant-%06d", i);
	}

	private static String abbreviate(String text) {
		return text.length() > 120 ? text.substring(0, 120) + "…" : text;
	}

}
