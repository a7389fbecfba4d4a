package dev.breaker.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The per-key children of one group: at most maxEntries (least recently used evicted),
 * idle ones expire; a child under an operator's override is kept until it is reset.
 */
final class ChildBreakers {

	/*
	 * One lock per group guards an access-ordered LinkedHashMap: a lookup of an existing
	 * child is a hash lookup and a relink, no allocation. Expiry is lazy (checked from
	 * the eldest end on every lookup, stopping at the first entry still fresh), so there
	 * is no cleanup thread. Breakers are created under the lock (their constructor runs
	 * no user code); the registry's listeners run after it is released. A read that must
	 * not count as a use (find(), an operator's or the fleet's look at a child) goes
	 * through a plain index of the same entries, since a get on an access-ordered map
	 * relinks the entry as used.
	 *
	 * Pinned: a child whose state is an operator's override (FORCED_OPEN or DISABLED,
	 * made on this replica or, in fleet mode, on a peer) is neither expired nor evicted,
	 * so the next lookup finds the operator's decision instead of a fresh CLOSED child;
	 * it is unpinned by the override that ends it (a reset, back to CLOSED), and then
	 * expires or is evicted as any other. Pinned children count toward maxEntries, so
	 * memory stays bounded: when every child kept is pinned, the child made for a new key
	 * is the one evicted, at once (it serves the call that asked for it, consulting its
	 * parent as any child, and a later call gets another). Pinning is read from the
	 * child's state, one volatile read, on the slow path only (touch() is unchanged):
	 * expiry and the eviction pick step over pinned children, which cost a scan each
	 * time, as many as the operator pinned.
	 */

	private final BreakerRegistry.Children policy;

	private final long idleNanos;

	private final Ticker ticker;

	private final long sweepEveryNanos;

	/** The children's classifier warnings: one limit for the whole group. */
	final Classification classification;

	private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

	/** The same entries, by key, for reads that leave the eviction order alone. */
	private final HashMap<String, Entry> index = new HashMap<>();

	private long lastSweep;

	ChildBreakers(BreakerRegistry.Children policy, Ticker ticker) {
		this.policy = policy;
		this.idleNanos = policy.idleExpiry().toNanos();
		this.sweepEveryNanos = Math.min(idleNanos, 1_000_000_000L);
		this.ticker = ticker;
		this.classification = new Classification(ticker);
		this.lastSweep = ticker.nanos();
	}

	/**
	 * The fresh child for {@code key}, refreshed, or null when the caller must take the
	 * slow path ({@link #get}): the child is missing or idle, or a sweep of idle children
	 * is due (at most every second, or every idleExpiry if shorter). Allocates nothing.
	 */
	Breaker touch(String key) {
		long now = ticker.nanos();
		synchronized (entries) {
			if (now - lastSweep >= sweepEveryNanos) {
				return null;
			}
			Entry entry = entries.get(key);
			if (entry == null || now - entry.lastUsed >= idleNanos) {
				return null;
			}
			entry.lastUsed = now;
			return entry.breaker;
		}
	}

	/** Returns the child for {@code key}, creating it with {@code factory}. */
	Breaker get(String key, Function<String, Breaker> factory, List<Breaker> createdOut, List<Breaker> removedOut) {
		long now = ticker.nanos();
		synchronized (entries) {
			lastSweep = now;
			expire(now, removedOut);
			Entry entry = entries.get(key);
			if (entry != null) {
				if (now - entry.lastUsed < idleNanos || pinned(entry)) {
					entry.lastUsed = now;
					return entry.breaker;
				}
				// idle, yet missed by expire(): touch() made it the latest entry used
				entries.remove(key);
				index.remove(key);
				removed(entry.breaker, removedOut);
			}
			Breaker breaker = factory.apply(key);
			Entry created = new Entry(breaker, now);
			entries.put(key, created);
			index.put(key, created);
			createdOut.add(breaker);
			if (entries.size() > policy.maxEntries()) {
				// the least recently used child not pinned: at worst the one just made
				Iterator<Map.Entry<String, Entry>> eldest = entries.entrySet().iterator();
				Map.Entry<String, Entry> evicted = eldest.next();
				while (pinned(evicted.getValue()) && eldest.hasNext()) {
					evicted = eldest.next();
				}
				removed(evicted.getValue().breaker, removedOut);
				eldest.remove();
				index.remove(evicted.getKey());
			}
			return breaker;
		}
	}

	/**
	 * The child for {@code key} if present and fresh, without refreshing it or moving it
	 * in the eviction order.
	 */
	Breaker find(String key) {
		long now = ticker.nanos();
		synchronized (entries) {
			Entry entry = index.get(key);
			return entry == null || now - entry.lastUsed >= idleNanos && !pinned(entry) ? null : entry.breaker;
		}
	}

	List<Breaker> all() {
		synchronized (entries) {
			List<Breaker> out = new ArrayList<>(entries.size());
			entries.values().forEach(e -> out.add(e.breaker));
			return out;
		}
	}

	private void expire(long now, List<Breaker> removedOut) {
		Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
		while (it.hasNext()) {
			Map.Entry<String, Entry> eldest = it.next();
			if (now - eldest.getValue().lastUsed < idleNanos) {
				return;
			}
			if (pinned(eldest.getValue())) {
				continue;
			}
			removed(eldest.getValue().breaker, removedOut);
			it.remove();
			index.remove(eldest.getKey());
		}
	}

	/** Whether the child is under an operator's override, which must not be forgotten. */
	private static boolean pinned(Entry entry) {
		State state = entry.breaker.currentState();
		return state == State.FORCED_OPEN || state == State.DISABLED;
	}

	private static void removed(Breaker breaker, List<Breaker> removedOut) {
		breaker.markRemoved();
		removedOut.add(breaker);
	}

	private static final class Entry {

		final Breaker breaker;

		long lastUsed;

		Entry(Breaker breaker, long lastUsed) {
			this.breaker = breaker;
			this.lastUsed = lastUsed;
		}

	}

}
