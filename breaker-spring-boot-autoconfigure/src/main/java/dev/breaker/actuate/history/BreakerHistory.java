package dev.breaker.actuate.history;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Ticker;
import dev.breaker.http.HostBreakers;

/**
 * The last {@value #SECONDS} seconds of every top-level and per-host breaker, one
 * {@link Second} each, kept from the start so that a page opened (or reloaded) during an
 * incident shows how it began.
 * <p>
 * Once a second of the breakers' time, a sample reads each breaker's cumulative totals
 * and latency histogram and keeps the difference from the previous sample: exact counts
 * per second, whatever the window. Per-tenant children have no history (they could be
 * thousands; their group has one). A breaker the registry drops (an evicted host) loses
 * its history. While running as a lifecycle bean, one daemon thread looks ten times a
 * second whether a sample is due; a failing sample is logged and the next one tried.
 */
public class BreakerHistory implements SmartLifecycle {

	/** Seconds kept per breaker: five minutes. */
	public static final int SECONDS = 300;

	private static final Log logger = LogFactory.getLog(BreakerHistory.class);

	private static final long SECOND_NANOS = Duration.ofSeconds(1).toNanos();

	private final BreakerRegistry registry;

	private final Ticker ticker;

	private final Clock clock;

	private final Map<String, Track> tracks = new ConcurrentHashMap<>();

	private long lastSample;

	/**
	 * The wall-clock time of ticker time {@link #tickerOrigin}: each second is stamped on
	 * the ticker's grid.
	 */
	private Instant wallOrigin;

	private long tickerOrigin;

	private volatile ScheduledExecutorService executor;

	/**
	 * @param registry the breakers to keep a history of
	 * @param ticker the breakers' time: a sample is due when it has moved on by a second
	 * @param clock the wall clock that stamps each second
	 */
	public BreakerHistory(BreakerRegistry registry, Ticker ticker, Clock clock) {
		this.registry = registry;
		this.ticker = ticker;
		this.clock = clock;
		this.lastSample = ticker.nanos();
		this.tickerOrigin = this.lastSample;
		this.wallOrigin = clock.instant();
		registry.onCreated((breaker) -> keep(breaker, true));
		registry.onRemoved(this::forget);
		registry.breakers().forEach((breaker) -> keep(breaker, false));
		registry.children(HostBreakers.GROUP).forEach((breaker) -> keep(breaker, false));
	}

	/** Whether a breaker gets a history: every breaker but per-tenant children. */
	static boolean kept(Breaker breaker) {
		return breaker.key() == null || HostBreakers.GROUP.equals(breaker.group());
	}

	/**
	 * Tracks {@code breaker}, in place of the track of an earlier breaker of the same
	 * name (a child evicted and re-created, whose eviction may be heard after the
	 * re-creation), and hears its transitions from it: an evicted child still finishing
	 * calls reports under the same name, and must not colour its replacement's seconds.
	 */
	private void keep(Breaker breaker, boolean created) {
		if (!kept(breaker) || breaker.removed()) {
			return;
		}
		// a removed breaker never replaces a track: it may be its replacement's
		Track kept = this.tracks.compute(breaker.name(),
				(name, track) -> (track != null && (track.breaker == breaker || breaker.removed())) ? track
						: new Track(breaker, created));
		if (kept.breaker == breaker && kept.listening.compareAndSet(false, true)) {
			breaker.onTransition((transition) -> {
				if (this.tracks.get(transition.breaker()) == kept) {
					kept.entered(transition.to());
				}
			});
		}
		if (breaker.removed()) {
			// evicted before its creation was heard: its removal found nothing
			forget(breaker);
		}
	}

	private void forget(Breaker breaker) {
		this.tracks.computeIfPresent(breaker.name(), (name, track) -> (track.breaker == breaker) ? null : track);
	}

	/**
	 * The history of one breaker, oldest second first: empty for a breaker without one (a
	 * tenant child, or one not seen yet).
	 * @param name the breaker's full name
	 * @return the seconds kept, at most {@value #SECONDS}
	 */
	public List<Second> of(String name) {
		Track track = this.tracks.get(name);
		return (track != null) ? track.seconds() : List.of();
	}

	/** The names of the breakers that have a history. */
	public Set<String> tracked() {
		return new TreeSet<>(this.tracks.keySet());
	}

	/**
	 * Takes a sample if the breakers' time has moved on by a second since the last one.
	 */
	public synchronized void sampleIfDue() {
		long now = this.ticker.nanos();
		long since = now - this.lastSample;
		if (since < SECOND_NANOS) {
			return;
		}
		// a second after the last one, so that the checks' jitter does not stretch the
		// seconds; after a
		// pause (a stopped JVM, a slow machine) start again from now
		this.lastSample = (since < 2 * SECOND_NANOS) ? this.lastSample + SECOND_NANOS : now;
		Instant at = stamp();
		for (Track track : this.tracks.values()) {
			try {
				track.sample(at);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not sample the history of breaker '" + track.breaker.name() + "'", ex);
			}
		}
	}

	/**
	 * The wall-clock second of the sample just due: on the ticker's grid, so consecutive
	 * seconds are one second apart whatever the jitter of the checks; re-anchored when
	 * the wall clock has moved more than two seconds away from it (NTP, a suspended
	 * machine).
	 */
	private Instant stamp() {
		Instant wall = this.clock.instant();
		Instant at = this.wallOrigin.plusNanos(this.lastSample - this.tickerOrigin);
		if (Duration.between(at, wall).abs().compareTo(Duration.ofSeconds(2)) > 0) {
			this.wallOrigin = wall;
			this.tickerOrigin = this.lastSample;
			at = wall;
		}
		return at.truncatedTo(ChronoUnit.SECONDS);
	}

	@Override
	public void start() {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "breaker-history");
			thread.setDaemon(true);
			return thread;
		});
		executor.scheduleWithFixedDelay(this::sampleQuietly, 100, 100, TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	private void sampleQuietly() {
		try {
			sampleIfDue();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not sample the breakers' history", ex);
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService executor = this.executor;
		if (executor != null) {
			executor.shutdownNow();
			this.executor = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

}
