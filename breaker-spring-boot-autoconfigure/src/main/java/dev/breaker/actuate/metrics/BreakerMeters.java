package dev.breaker.actuate.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import dev.breaker.core.Transition;

/**
 * The meters of one breaker in one registry.
 * <p>
 * Everything a call changes is read from the engine when the registry is scraped
 * (function counters over {@link Breaker#totals()}, gauges over the state and snapshot),
 * so a call pays nothing for metrics. Only transitions, which are rare, increment a
 * counter here, and they also mark the start and end of an open episode for
 * {@code breaker_open_seconds}.
 */
final class BreakerMeters {

	/**
	 * Buckets of the open-episode histogram: a blip, a cooldown or two, a real outage.
	 */
	private static final Duration[] OPEN_EPISODE_BUCKETS = { Duration.ofSeconds(1), Duration.ofSeconds(5),
			Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(2),
			Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofHours(1) };

	/**
	 * Transitions a breaker makes on its own: their series exist from the start so that
	 * {@code increase()} sees the first one.
	 */
	private static final State[][] USUAL_TRANSITIONS = { { State.CLOSED, State.OPEN }, { State.OPEN, State.HALF_OPEN },
			{ State.HALF_OPEN, State.OPEN }, { State.HALF_OPEN, State.CLOSED } };

	private static final Log logger = LogFactory.getLog(BreakerMetrics.class);

	private static final long NOT_OPEN = Long.MIN_VALUE;

	private static final int STATES = State.values().length;

	private final Breaker breaker;

	/** The ticker's reading when these meters were made. */
	private final long origin;

	private final MeterRegistry registry;

	private final Tags tags;

	/**
	 * Runs a job with the binding's other jobs, one at a time, in the order they came:
	 * every registration and removal of these meters is such a job, so none of them ever
	 * races another or runs inside another (see {@link BreakerMetrics}).
	 */
	private final Consumer<Runnable> jobs;

	/** This meters' listener on the breaker, removed with them. */
	private final Consumer<Transition> listener = this::heard;

	/** The meters made; touched by jobs only. */
	private final List<Meter> meters = new ArrayList<>();

	/** {@link #PENDING}, then {@link #LIVE}, then {@link #CLOSED}; set by jobs only. */
	private volatile int phase = PENDING;

	private static final int PENDING = 0;

	private static final int LIVE = 1;

	private static final int CLOSED = 2;

	private final AtomicReferenceArray<Counter> transitions = new AtomicReferenceArray<>(STATES * STATES);

	/** Transitions heard whose counter was not made yet: counted by the next job. */
	private final AtomicLongArray uncounted = new AtomicLongArray(STATES * STATES);

	/** {@link #now()} when the current open episode began, or {@link #NOT_OPEN}. */
	private final AtomicLong openSince = new AtomicLong(NOT_OPEN);

	private volatile @Nullable Timer openEpisodes;

	/** Open episodes (nanoseconds) that ended before their timer was made. */
	private final Queue<Long> unrecordedEpisodes = new ConcurrentLinkedQueue<>();

	BreakerMeters(Breaker breaker, MeterRegistry registry, Tags tags, Consumer<Runnable> jobs) {
		this.breaker = breaker;
		this.origin = breaker.nanos();
		this.registry = registry;
		this.tags = tags;
		this.jobs = jobs;
	}

	Breaker breaker() {
		return this.breaker;
	}

	/**
	 * Starts hearing the breaker's transitions; called before the job that registers
	 * these meters is queued, so that a transition heard before the job runs is counted
	 * by it.
	 */
	void listen() {
		this.breaker.onTransition(this.listener);
	}

	/**
	 * Registers every meter (a job). A transition heard before or while this runs is
	 * counted once: on a meter made already, or on the counter this makes for it, here or
	 * in a job after it.
	 */
	void register() {
		this.phase = LIVE;
		startEpisodeIfOpen();
		for (State state : State.values()) {
			gauge("breaker.state", "1 for the breaker's current state, 0 for the others",
					(b) -> (b.state() == state) ? 1 : 0, Tags.of("state", state.name()));
		}
		for (Outcome outcome : Outcome.values()) {
			functionCounter("breaker.calls", "Finished calls by outcome", (b) -> b.totals().calls(outcome),
					Tags.of("outcome", outcome.name().toLowerCase(Locale.ROOT)));
		}
		functionCounter("breaker.slow.calls", "Calls slower than the slow-call duration", (b) -> b.totals().slowCalls(),
				Tags.empty());
		functionCounter("breaker.rejected.calls", "Calls rejected because the breaker was open",
				(b) -> b.totals().rejected(), Tags.empty());
		functionCounter("breaker.probes", "Half-open probes by result", (b) -> b.totals().probeSuccesses(),
				Tags.of("result", "success"));
		functionCounter("breaker.probes", "Half-open probes by result", (b) -> b.totals().probeFailures(),
				Tags.of("result", "failure"));
		functionCounter("breaker.trips", "Times the breaker tripped open", (b) -> b.totals().trips(), Tags.empty());
		functionCounter("breaker.retries", "Retries by result: made, or refused by the retry budget",
				(b) -> b.totals().retries(), Tags.of("result", "retried"));
		functionCounter("breaker.retries", "Retries by result: made, or refused by the retry budget",
				(b) -> b.totals().retriesRefused(), Tags.of("result", "budget_exhausted"));
		gauge("breaker.failure.rate", "Failure rate in the window, percent", (b) -> b.snapshot().failureRate(),
				Tags.empty());
		gauge("breaker.slow.call.rate", "Slow-call rate in the window, percent", (b) -> b.snapshot().slowCallRate(),
				Tags.empty());
		gauge("breaker.in.flight.calls", "Calls started and not yet finished", (b) -> b.snapshot().inFlight(),
				Tags.empty());
		gauge("breaker.failure.rate.threshold", "Failure rate that trips the breaker, percent (0 = rule off)",
				(b) -> b.config().failureRateThreshold(), Tags.empty());
		gauge("breaker.slow.call.rate.threshold", "Slow-call rate that trips the breaker, percent (0 = rule off)",
				(b) -> b.config().slowCallRateThreshold(), Tags.empty());
		secondsGauge("breaker.open.wait", "Configured base open wait", (b) -> seconds(b.config().openWait().toNanos()));
		secondsGauge("breaker.slow.call.duration", "Configured slow-call duration: a call longer than this is slow",
				(b) -> seconds(b.config().slowCallDuration().toNanos()));
		secondsGauge("breaker.open.episode", "How long the current open episode has lasted, 0 when closed",
				(b) -> currentEpisodeSeconds());
		openEpisodes();
		for (State[] transition : USUAL_TRANSITIONS) {
			transitionCounter(transition[0], transition[1]);
		}
		countHeard();
	}

	/**
	 * Counts a transition and opens or closes the open episode it starts or ends, on the
	 * thread that made it: a meter made already is updated here (no lock, no Micrometer
	 * lookup), the rest is left to a job.
	 */
	private void heard(Transition transition) {
		if (this.phase == CLOSED) {
			return;
		}
		try {
			count(transition);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not record transition " + transition.from() + " -> " + transition.to() + " of breaker '"
					+ BreakerNames.printable(transition.breaker()) + "'", ex);
		}
	}

	private void count(Transition transition) {
		boolean later = false;
		int index = index(transition.from(), transition.to());
		Counter counter = this.transitions.get(index);
		if (counter != null) {
			counter.increment();
		}
		else {
			this.uncounted.incrementAndGet(index);
			later = true;
		}
		if (isOpenEpisode(transition.to())) {
			this.openSince.compareAndSet(NOT_OPEN, now());
		}
		else {
			long since = this.openSince.getAndSet(NOT_OPEN);
			if (since != NOT_OPEN) {
				long nanos = Math.max(0, now() - since);
				Timer episodes = this.openEpisodes;
				if (episodes != null) {
					episodes.record(nanos, TimeUnit.NANOSECONDS);
				}
				else {
					this.unrecordedEpisodes.add(nanos);
					later = true;
				}
			}
		}
		// while PENDING, the registering job (queued after this listener was added)
		// counts it; read after the count was left, so that job or this one sees it
		if (later && this.phase == LIVE) {
			this.jobs.accept(this::countHeard);
		}
	}

	/**
	 * Counts the transitions and open episodes heard before their meter was made (a job),
	 * each once.
	 */
	private void countHeard() {
		if (this.phase != LIVE) {
			return;
		}
		for (int index = 0; index < STATES * STATES; index++) {
			if (this.uncounted.get(index) != 0) {
				Counter counter = transitionCounter(State.values()[index / STATES], State.values()[index % STATES]);
				long count = this.uncounted.getAndSet(index, 0);
				if (counter != null) {
					counter.increment(count);
				}
			}
		}
		for (Long nanos = this.unrecordedEpisodes.poll(); nanos != null; nanos = this.unrecordedEpisodes.poll()) {
			Timer episodes = openEpisodes();
			if (episodes != null) {
				episodes.record(nanos, TimeUnit.NANOSECONDS);
			}
		}
	}

	/**
	 * Closes these meters (a job): no meter is made after it and the breaker is no longer
	 * heard. Alone, for meters never registered (the breaker is gone already, or was seen
	 * twice); {@link #remove()} does it too.
	 */
	void close() {
		this.phase = CLOSED;
		this.breaker.removeTransitionListener(this.listener);
	}

	/**
	 * Starts the open episode of a breaker that is in one when its meters are made. Read
	 * after the transition listener is attached: a transition that ends the episode
	 * before the start is recorded is seen by the second read of the state.
	 */
	private void startEpisodeIfOpen() {
		if (!isOpenEpisode(this.breaker.state())) {
			return;
		}
		long now = now();
		if (this.openSince.compareAndSet(NOT_OPEN, now) && !isOpenEpisode(this.breaker.state())) {
			this.openSince.compareAndSet(now, NOT_OPEN);
		}
	}

	/**
	 * Removes every meter of this breaker from the registry (a job), each even when the
	 * registry refused another, and stops hearing the breaker.
	 * @throws RuntimeException the first refusal, once every meter was tried (or the
	 * Error user code threw, after every meter was tried)
	 */
	void remove() {
		close();
		Throwable refused = null;
		for (Meter meter : this.meters) {
			try {
				this.registry.remove(meter);
			}
			catch (Throwable ex) {
				if (refused == null) {
					refused = ex;
				}
				else {
					refused.addSuppressed(ex);
				}
			}
		}
		this.meters.clear();
		if (refused instanceof Error error) {
			throw error;
		}
		if (refused != null) {
			throw (RuntimeException) refused;
		}
	}

	/**
	 * OPEN, HALF_OPEN and FORCED_OPEN: the breaker is not letting traffic flow as normal.
	 */
	private static boolean isOpenEpisode(State state) {
		return state == State.OPEN || state == State.HALF_OPEN || state == State.FORCED_OPEN;
	}

	/**
	 * Nanoseconds of the breaker's ticker since these meters were made: from 0 for 292
	 * years, so never {@link #NOT_OPEN}, wherever the ticker starts (it may read
	 * {@code Long.MIN_VALUE} itself).
	 */
	private long now() {
		return this.breaker.nanos() - this.origin;
	}

	private double currentEpisodeSeconds() {
		long since = this.openSince.get();
		return (since != NOT_OPEN) ? seconds(Math.max(0, now() - since)) : 0;
	}

	private static double seconds(long nanos) {
		return nanos / 1e9;
	}

	private static int index(State from, State to) {
		return from.ordinal() * STATES + to.ordinal();
	}

	/**
	 * The counter of one transition, made on first use (by a job); {@code null} unless
	 * the meters are live.
	 */
	private @Nullable Counter transitionCounter(State from, State to) {
		int index = index(from, to);
		Counter counter = this.transitions.get(index);
		if (counter == null && this.phase == LIVE) {
			counter = keep(Counter.builder("breaker.transitions")
				.description("State transitions")
				.tags(this.tags)
				.tag("from", from.name())
				.tag("to", to.name())
				.register(this.registry));
			this.transitions.set(index, counter);
		}
		return counter;
	}

	/**
	 * The open-episode timer, made on first use (by a job); {@code null} unless the
	 * meters are live.
	 */
	private @Nullable Timer openEpisodes() {
		Timer timer = this.openEpisodes;
		if (timer == null && this.phase == LIVE) {
			timer = keep(Timer.builder("breaker.open")
				.description("Time from a trip until the breaker closed again, one sample per open episode")
				.serviceLevelObjectives(OPEN_EPISODE_BUCKETS)
				.tags(this.tags)
				.register(this.registry));
			this.openEpisodes = timer;
		}
		return timer;
	}

	private void gauge(String name, String description, ToDoubleFunction<Breaker> value, Tags extra) {
		keep(Gauge.builder(name, this.breaker, value)
			.description(description)
			.tags(this.tags.and(extra))
			.strongReference(true)
			.register(this.registry));
	}

	private void secondsGauge(String name, String description, ToDoubleFunction<Breaker> value) {
		keep(Gauge.builder(name, this.breaker, value)
			.description(description)
			.baseUnit("seconds")
			.tags(this.tags)
			.strongReference(true)
			.register(this.registry));
	}

	private void functionCounter(String name, String description, ToDoubleFunction<Breaker> value, Tags extra) {
		keep(FunctionCounter.builder(name, this.breaker, value)
			.description(description)
			.tags(this.tags.and(extra))
			.register(this.registry));
	}

	/** Keeps a meter just registered, for {@link #remove()}. */
	private <M extends Meter> M keep(M meter) {
		this.meters.add(meter);
		return meter;
	}

}
