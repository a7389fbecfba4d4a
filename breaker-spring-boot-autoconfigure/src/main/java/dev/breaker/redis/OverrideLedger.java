package dev.breaker.redis;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The signed fleet-wide overrides this replica took (from the channel or from Redis), so
 * that one heard again cannot undo a later decision: an override whose signature was
 * heard within the freshness window is a replay, and one issued well before the latest
 * decision taken for its breaker is no news (signing on only: without it anyone may send
 * anything). Bounded: at most {@link #MOST} signatures (each kept for twice the freshness
 * window) and {@link #MOST} breakers' latest decision times (the least recently touched
 * goes first).
 */
final class OverrideLedger {

	/** How many signatures, and how many breakers' decision times, are kept at most. */
	static final int MOST = 4096;

	/**
	 * How much earlier than the latest decision taken for its breaker an override may
	 * have been issued and still be taken: two replicas' estimates of Redis's clock
	 * differ by their round trips, and Redis publishes two operators' decisions in the
	 * order it takes them, not the order they were issued.
	 */
	static final long ORDER_SLACK_MILLIS = 5_000;

	/** Signature to when it may be forgotten (this JVM's nanoTime). */
	private final LinkedHashMap<String, Long> heard = new LinkedHashMap<>();

	/** Breaker to the latest issue time of an override taken for it. */
	private final LinkedHashMap<String, Long> latest = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
			return size() > MOST;
		}

	};

	/** Whether this signature was taken within the last twice the freshness window. */
	synchronized boolean replayed(String signature, long nowNanos) {
		forget(nowNanos);
		return heard.containsKey(signature);
	}

	/**
	 * Whether an override issued at {@code issuedAt} (Redis's clock, ms) for
	 * {@code breaker} was issued too long before the latest one taken for it.
	 */
	synchronized boolean outdated(String breaker, long issuedAt) {
		Long last = latest.get(breaker);
		return last != null && issuedAt < last - ORDER_SLACK_MILLIS;
	}

	/** The override was taken: its signature and issue time are remembered. */
	synchronized void taken(String breaker, String signature, long issuedAt, long nowNanos) {
		forget(nowNanos);
		if (!signature.isEmpty()) {
			heard.remove(signature);
			if (heard.size() >= MOST) {
				Iterator<String> eldest = heard.keySet().iterator();
				eldest.next();
				eldest.remove();
			}
			heard.put(signature, nowNanos + 2 * Trust.SKEW_MILLIS * 1_000_000L);
		}
		latest.merge(breaker, issuedAt, Math::max);
	}

	/** The number of signatures kept (for tests). */
	synchronized int signatures() {
		return heard.size();
	}

	private void forget(long nowNanos) {
		Iterator<Long> until = heard.values().iterator();
		while (until.hasNext() && until.next() - nowNanos <= 0) {
			until.remove();
		}
	}

}
