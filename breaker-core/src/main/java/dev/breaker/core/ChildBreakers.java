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
 * idle ones expire; a child under an operator's override is kept until it is reset, one
 * that tripped by itself does not expire before its open wait ends.
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
	 * made on this replica or, in fleet mode, on a peer), or that an operator's override
	 * is being applied to (held), is neither expired nor evicted, so the next lookup
	 * finds the operator's decision instead of a fresh CLOSED child; it is unpinned by
	 * the override that ends it (a reset, back to CLOSED), and then expires or is evicted
	 * as any other. Pinned children count toward maxEntries, so memory stays bounded:
	 * when every child kept is pinned, the child made for a new key is the one evicted,
	 * at once (it serves the call that asked for it, consulting its parent as any child,
	 * and a later call gets another).
	 *
	 * Pinning is read from the child's state, one volatile read, on the slow path only.
	 * Expiry and the eviction pick, meeting a pinned child at the eldest end, move it out
	 * of the eviction order into `pinned`, so neither ever steps over it again: a new
	 * key's lookup looks at O(1) children amortised however many are pinned. Each slow
	 * lookup looks again at the one longest in `pinned`: still pinned, it goes to the
	 * back; reset, it returns to the eviction order (or, idle, expires). So a child reset
	 * is evictable again within as many slow lookups as children are pinned, and is found
	 * meanwhile (touch() looks in `pinned` after a miss).
	 *
	 * Waiting: a child in an open episode (OPEN, or HALF_OPEN since its open wait ended)
	 * counts as idle only from the end of its open wait, so a dependency called less
	 * often than idleExpiry stays open and keeps its backoff streak. Met idle by expiry,
	 * it is set aside in `waiting` (as pinned children are, so no lookup steps over it
	 * again); the lookup of its key takes it back into the eviction order. It counts
	 * toward maxEntries, and unlike a pinned child it can be evicted: waiting children
	 * are the least recently used of all, so a full group evicts the one longest there
	 * first, and memory stays bounded however long open waits are.
	 *
	 * Held: an operator's override runs with no lock held (the breaker's transition
	 * listeners run in it), so "found, then overridden" would race an eviction that read
	 * the child's state just before the override's CAS. hold() marks the child, under the
	 * lock, as it is found; the override then lands on a child that stays.
	 */

	private final BreakerRegistry.Children policy;

	private final long idleNanos;

	private final Ticker ticker;

	private final long sweepEveryNanos;

	/** The children's classifier warnings: one limit for the whole group. */
	final Classification classification;

	/** The children not (known to be) pinned, least recently used first. */
	private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

	/** The children found pinned by expiry or eviction, longest there first. */
	private final LinkedHashMap<String, Entry> pinned = new LinkedHashMap<>();

	/**
	 * The children found idle by expiry during their open episode, longest there first.
	 */
	private final LinkedHashMap<String, Entry> waiting = new LinkedHashMap<>();

	/** Every child, by key, for reads that leave the eviction order alone. */
	private final HashMap<String, Entry> index = new HashMap<>();

	private long lastSweep;

	/** Children looked at by expiry, eviction and the pinned recheck (tests). */
	private long visited;

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
			if (entry == null) {
				entry = pinned.get(key);
				if (entry == null) {
					// a waiting child is idle: the slow path takes it back
					return null;
				}
			}
			if (now - entry.lastUsed >= idleNanos) {
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
			recheck(pinned, now, removedOut);
			recheck(waiting, now, removedOut);
			Entry entry = index.get(key);
			if (entry != null) {
				if (findable(entry, now)) {
					entry.lastUsed = now;
					if (entry.aside == null) {
						entries.get(key); // a use: the most recently used
					}
					else if (entry.aside == waiting) {
						waiting.remove(key); // used: back in the eviction order
						entry.aside = null;
						entries.put(key, entry);
					}
					return entry.breaker;
				}
				// idle, yet missed by expire(): touch() made it the latest entry used
				drop(key, entry, removedOut);
			}
			Breaker breaker = factory.apply(key);
			Entry created = new Entry(breaker, now);
			entries.put(key, created);
			index.put(key, created);
			createdOut.add(breaker);
			if (index.size() > policy.maxEntries()) {
				evictOne(removedOut);
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
			return findable(entry, now) ? entry.breaker : null;
		}
	}

	/**
	 * As {@link #find}, and holds the child found against expiry and eviction until
	 * {@link #release}: an operator's override applied in between cannot land on a child
	 * dropped meanwhile. Null when there is no such child.
	 */
	Entry hold(String key) {
		long now = ticker.nanos();
		synchronized (entries) {
			Entry entry = index.get(key);
			if (!findable(entry, now)) {
				return null;
			}
			entry.holds++;
			return entry;
		}
	}

	/** Ends a {@link #hold}. */
	void release(Entry entry) {
		synchronized (entries) {
			entry.holds--;
		}
	}

	List<Breaker> all() {
		synchronized (entries) {
			List<Breaker> out = new ArrayList<>(index.size());
			entries.values().forEach(e -> out.add(e.breaker));
			pinned.values().forEach(e -> out.add(e.breaker));
			waiting.values().forEach(e -> out.add(e.breaker));
			return out;
		}
	}

	long visited() {
		synchronized (entries) {
			return visited;
		}
	}

	private boolean findable(Entry entry, long now) {
		return entry != null && (now - entry.lastUsed < idleNanos || pinned(entry) || waitingOut(entry));
	}

	private void expire(long now, List<Breaker> removedOut) {
		Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
		while (it.hasNext()) {
			Map.Entry<String, Entry> eldest = it.next();
			visited++;
			if (now - eldest.getValue().lastUsed < idleNanos) {
				return;
			}
			it.remove();
			place(eldest.getKey(), eldest.getValue(), now, removedOut);
		}
	}

	/**
	 * Evicts the least recently used child not pinned (at worst the one just made): first
	 * the one waiting longest, then from the eviction order, setting aside the pinned
	 * ones it meets.
	 */
	private void evictOne(List<Breaker> removedOut) {
		Iterator<Map.Entry<String, Entry>> waited = waiting.entrySet().iterator();
		while (waited.hasNext()) {
			Map.Entry<String, Entry> longest = waited.next();
			visited++;
			waited.remove();
			longest.getValue().aside = null;
			if (pinned(longest.getValue())) {
				setAside(pinned, longest.getKey(), longest.getValue());
				continue;
			}
			index.remove(longest.getKey());
			removed(longest.getValue().breaker, removedOut);
			return;
		}
		Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
		while (it.hasNext()) {
			Map.Entry<String, Entry> eldest = it.next();
			visited++;
			it.remove();
			if (pinned(eldest.getValue()) && it.hasNext()) {
				setAside(pinned, eldest.getKey(), eldest.getValue());
				continue;
			}
			index.remove(eldest.getKey());
			removed(eldest.getValue().breaker, removedOut);
			return;
		}
	}

	/**
	 * Looks again at the child longest in {@code aside}: still pinned or waiting, to the
	 * back of either; else back in the eviction order, or gone if idle.
	 */
	private void recheck(LinkedHashMap<String, Entry> aside, long now, List<Breaker> removedOut) {
		Iterator<Map.Entry<String, Entry>> it = aside.entrySet().iterator();
		if (!it.hasNext()) {
			return;
		}
		Map.Entry<String, Entry> longest = it.next();
		visited++;
		it.remove();
		longest.getValue().aside = null;
		place(longest.getKey(), longest.getValue(), now, removedOut);
	}

	/**
	 * Places a child out of the eviction order: pinned, waiting, back in the eviction
	 * order if fresh, or gone.
	 */
	private void place(String key, Entry entry, long now, List<Breaker> removedOut) {
		if (pinned(entry)) {
			setAside(pinned, key, entry);
		}
		else if (now - entry.lastUsed < idleNanos) {
			entries.put(key, entry);
		}
		else if (waitingOut(entry)) {
			setAside(waiting, key, entry);
		}
		else {
			index.remove(key);
			removed(entry.breaker, removedOut);
		}
	}

	private static void setAside(LinkedHashMap<String, Entry> aside, String key, Entry entry) {
		entry.aside = aside;
		aside.put(key, entry);
	}

	private void drop(String key, Entry entry, List<Breaker> removedOut) {
		if (entry.aside != null) {
			entry.aside.remove(key);
		}
		else {
			entries.remove(key);
		}
		index.remove(key);
		removed(entry.breaker, removedOut);
	}

	/**
	 * Whether the child is under an operator's override, or one is being applied, which
	 * must not be forgotten.
	 */
	private static boolean pinned(Entry entry) {
		if (entry.holds > 0) {
			return true;
		}
		State state = entry.breaker.currentState();
		return state == State.FORCED_OPEN || state == State.DISABLED;
	}

	/**
	 * Whether the child is in an open episode idle expiry must wait out: OPEN, or
	 * HALF_OPEN, less than idleExpiry after its open wait ended (idle counts from there).
	 */
	private boolean waitingOut(Entry entry) {
		Breaker breaker = entry.breaker;
		BreakerState state = breaker.current();
		long now = breaker.now();
		if (state instanceof OpenState open) {
			return now - open.until() < idleNanos;
		}
		return state.state == State.HALF_OPEN && now - state.enteredNanos < idleNanos;
	}

	private static void removed(Breaker breaker, List<Breaker> removedOut) {
		breaker.markRemoved();
		removedOut.add(breaker);
	}

	/** One child, and its place (guarded by the group's lock). */
	static final class Entry {

		final Breaker breaker;

		long lastUsed;

		/** Overrides being applied to it ({@link #hold}). */
		int holds;

		/**
		 * The set-aside map it is in ({@code pinned} or {@code waiting}), rather than in
		 * the eviction order; null when in the eviction order.
		 */
		LinkedHashMap<String, Entry> aside;

		Entry(Breaker breaker, long lastUsed) {
			this.breaker = breaker;
			this.lastUsed = lastUsed;
		}

	}

}
