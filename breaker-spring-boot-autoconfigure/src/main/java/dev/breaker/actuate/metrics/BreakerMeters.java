package dev.breaker.actuate.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import dev.breaker.core.Breaker;
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

	private static final long NOT_OPEN = Long.MIN_VALUE;

	private static final int STATES = State.values().length;

	private final Breaker breaker;

	/** The ticker's reading when these meters were made. */
	private final long origin;

	private final MeterRegistry registry;

	private final Tags tags;

	/**
	 * The binding's lock, the one lock of the metrics: it guards {@link #meters},
	 * {@link #closed} and every meter made, on first use too, so that none is made after
	 * {@link #remove()}. One lock for adding, removing and first use, so no two paths
	 * take two of them in opposite orders (Micrometer runs user code, filters and
	 * listeners, inside a registration: one that creates or evicts a measured breaker
	 * takes this lock again, on the same thread). Taken on a transition only when its
	 * meter is not made yet (a transition a breaker makes on its own during the
	 * registration, an operator's first override), never on a call.
	 */
	private final Object lock;

	/**
	 * Whether a namesake re-created after this breaker's removal has meters: their ids
	 * are this breaker's, so a meter Micrometer handed back after the removal may be the
	 * namesake's and is not removed.
	 */
	private final Predicate<BreakerMeters> namesakeMeasured;

	private final List<Meter> meters = new ArrayList<>();

	/** Set by {@link #remove()}: no meter is made or kept after it. */
	private boolean closed;

	private final AtomicReferenceArray<Counter> transitions = new AtomicReferenceArray<>(STATES * STATES);

	/** {@link #now()} when the current open episode began, or {@link #NOT_OPEN}. */
	private final AtomicLong openSince = new AtomicLong(NOT_OPEN);

	private volatile @Nullable Timer openEpisodes;

	BreakerMeters(Breaker breaker, MeterRegistry registry, Tags tags, Object lock,
			Predicate<BreakerMeters> namesakeMeasured) {
		this.breaker = breaker;
		this.origin = breaker.nanos();
		this.registry = registry;
		this.tags = tags;
		this.lock = lock;
		this.namesakeMeasured = namesakeMeasured;
	}

	Breaker breaker() {
		return this.breaker;
	}

	/**
	 * Registers every meter; called once, under the lock, after the transition listener
	 * is attached, so that a transition made during the registration is counted.
	 * Transitions may be reported before and while this runs: every meter
	 * {@link #onTransition} uses is made on first use. A removal heard meanwhile (on this
	 * thread: the lock is re-entrant) stops it, and the meter being registered then is
	 * removed too.
	 */
	void register() {
		synchronized (this.lock) {
			registerEach();
		}
	}

	private void registerEach() {
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
	}

	/** Counts a transition and opens or closes the open episode it starts or ends. */
	void onTransition(Transition transition) {
		Counter counter = transitionCounter(transition.from(), transition.to());
		if (counter != null) {
			counter.increment();
		}
		if (isOpenEpisode(transition.to())) {
			this.openSince.compareAndSet(NOT_OPEN, now());
		}
		else {
			long since = this.openSince.getAndSet(NOT_OPEN);
			Timer episodes = openEpisodes();
			if (since != NOT_OPEN && episodes != null) {
				episodes.record(Math.max(0, now() - since), TimeUnit.NANOSECONDS);
			}
		}
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
	 * Removes every meter of this breaker from the registry, each even when the registry
	 * refused another.
	 * @throws RuntimeException the first refusal, once every meter was tried
	 */
	void remove() {
		synchronized (this.lock) {
			RuntimeException refused = null;
			for (Meter meter : this.meters) {
				try {
					this.registry.remove(meter);
				}
				catch (RuntimeException ex) {
					if (refused == null) {
						refused = ex;
					}
					else {
						refused.addSuppressed(ex);
					}
				}
			}
			this.meters.clear();
			this.closed = true;
			if (refused != null) {
				throw refused;
			}
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

	/**
	 * The counter of one transition, made on first use; {@code null} once the meters are
	 * removed, so that a transition heard just before the removal makes no counter that
	 * outlives it.
	 */
	private @Nullable Counter transitionCounter(State from, State to) {
		int index = from.ordinal() * STATES + to.ordinal();
		Counter counter = this.transitions.get(index);
		if (counter != null) {
			return counter;
		}
		synchronized (this.lock) {
			counter = this.transitions.get(index);
			if (counter == null && !this.closed) {
				counter = keep(Counter.builder("breaker.transitions")
					.description("State transitions")
					.tags(this.tags)
					.tag("from", from.name())
					.tag("to", to.name())
					.register(this.registry));
				if (counter != null) {
					this.transitions.set(index, counter);
				}
			}
			return counter;
		}
	}

	/**
	 * The open-episode timer, made on first use; {@code null} once the meters are
	 * removed.
	 */
	private @Nullable Timer openEpisodes() {
		Timer timer = this.openEpisodes;
		if (timer != null) {
			return timer;
		}
		synchronized (this.lock) {
			timer = this.openEpisodes;
			if (timer == null && !this.closed) {
				timer = keep(Timer.builder("breaker.open")
					.description("Time from a trip until the breaker closed again, one sample per open episode")
					.serviceLevelObjectives(OPEN_EPISODE_BUCKETS)
					.tags(this.tags)
					.register(this.registry));
				this.openEpisodes = timer;
			}
			return timer;
		}
	}

	private void gauge(String name, String description, ToDoubleFunction<Breaker> value, Tags extra) {
		if (this.closed) {
			return;
		}
		keep(Gauge.builder(name, this.breaker, value)
			.description(description)
			.tags(this.tags.and(extra))
			.strongReference(true)
			.register(this.registry));
	}

	private void secondsGauge(String name, String description, ToDoubleFunction<Breaker> value) {
		if (this.closed) {
			return;
		}
		keep(Gauge.builder(name, this.breaker, value)
			.description(description)
			.baseUnit("seconds")
			.tags(this.tags)
			.strongReference(true)
			.register(this.registry));
	}

	private void functionCounter(String name, String description, ToDoubleFunction<Breaker> value, Tags extra) {
		if (this.closed) {
			return;
		}
		keep(FunctionCounter.builder(name, this.breaker, value)
			.description(description)
			.tags(this.tags.and(extra))
			.register(this.registry));
	}

	/**
	 * Keeps a meter just registered, under the lock; or, if the breaker was removed while
	 * it was registered (by user code inside the registration), removes it again and
	 * keeps nothing.
	 */
	private <M extends Meter> @Nullable M keep(M meter) {
		if (this.closed) {
			if (!this.namesakeMeasured.test(this)) {
				this.registry.remove(meter);
			}
			return null;
		}
		this.meters.add(meter);
		return meter;
	}

}
