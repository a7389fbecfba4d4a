package dev.breaker.aspect;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.breaker.core.Breaker;

/**
 * Why a scheduler refused a delay of a guarded call (a {@code RejectedExecutionException}
 * as it was slept or scheduled): because the application context is closing (the
 * scheduler closed with it refuses everything still in flight, the normal end of a
 * shutdown: a debug line), or while the context is live (its executor is saturated: a
 * warning, at most one a minute per breaker, counting those not logged since). A refusal
 * while closing ends an attempt's timeout as a timeout the close dropped.
 */
final class SchedulerRefusals {

	/**
	 * For retry loops that know no context (the HTTP clients'): every refusal is taken
	 * for a shutdown's.
	 */
	static final SchedulerRefusals ALWAYS_CLOSING = new SchedulerRefusals(true);

	private static final System.Logger LOG = System.getLogger(DelayScheduler.class.getName());

	/** The saturation warnings, per guarded breaker name (tenants with their group). */
	private final Map<String, QuietWarnings> saturated = new ConcurrentHashMap<>();

	private volatile boolean closing;

	SchedulerRefusals() {
		this(false);
	}

	private SchedulerRefusals(boolean closing) {
		this.closing = closing;
	}

	/** The context closes: from now on every refusal is the shutdown's. */
	void contextClosing() {
		this.closing = true;
	}

	boolean closing() {
		return this.closing;
	}

	/**
	 * The saturation warnings of breaker {@code name}, paced by {@code breaker}'s ticker.
	 */
	QuietWarnings saturated(String name, Breaker breaker) {
		return this.saturated.computeIfAbsent(name, (key) -> new QuietWarnings(LOG, breaker));
	}

}
