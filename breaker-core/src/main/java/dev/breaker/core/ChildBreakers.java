package dev.breaker.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
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
	 * again), ordered by its deadline: the end of its open wait plus idleExpiry. Every
	 * slow lookup takes out the waiting children whose deadline passed, looking at each
	 * again (an open wait extended, or a new episode, sets it back with a later deadline;
	 * else it is gone), so an ended episode is dropped on time however many wait. The
	 * lookup of its key takes it back into the eviction order. It counts toward
	 * maxEntries, and unlike a pinned child it can be evicted: waiting children are the
	 * least recently used of all, so a full group evicts the one whose deadline comes
	 * first (none is past it: the lookup expired those), and memory stays bounded however
	 * long open waits are. A HALF_OPEN child counts idle from the end of the open wait
	 * seen before it (entered by a read of its state, later, it would be kept longer).
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

	/** The ticker's reading when the group was made: deadlines count from there. */
	private final long origin;

	/** Orders the waiting children made with the same deadline. */
	private long waitingSeq;

	/** The children's classifier warnings: one limit for the whole group. */
	final Classification classification;

	/** The children not (known to be) pinned, least recently used first. */
	private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

	/** The children found pinned by expiry or eviction, longest there first. */
	private final LinkedHashMap<String, Entry> pinned = new LinkedHashMap<>();

	/**
	 * The children found idle by expiry during their open episode, soonest deadline
	 * first.
	 */
	private final TreeSet<Entry> waiting = new TreeSet<>(
			(a, b) -> (a.deadline != b.deadline) ? Long.compare(a.deadline, b.deadline) : Long.compare(a.seq, b.seq));

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
		this.origin = this.lastSweep;
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
			Entry entry = index.get(key);
			if (entry != null) {
				if (findable(entry, now)) {
					entry.lastUsed = now;
					if (entry.aside == Entry.IN_ORDER) {
						entries.get(key); // a use: the most recently used
					}
					else if (entry.aside == Entry.WAITING) {
						waiting.remove(entry); // used: back in the eviction order
						entry.aside = Entry.IN_ORDER;
						entries.put(key, entry);
					}
					return entry.breaker;
				}
				// idle, yet missed by expire(): touch() made it the latest entry used
				drop(key, entry, removedOut);
			}
			Breaker breaker = factory.apply(key);
			Entry created = new Entry(key, breaker, now);
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
			waiting.forEach(e -> out.add(e.breaker));
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
				break;
			}
			it.remove();
			place(eldest.getKey(), eldest.getValue(), now, removedOut);
		}
		long clock = now - origin;
		while (!waiting.isEmpty() && waiting.first().deadline - clock <= 0) {
			Entry due = waiting.pollFirst();
			visited++;
			due.aside = Entry.IN_ORDER;
			place(due.key, due, now, removedOut);
		}
	}

	/**
	 * Evicts the least recently used child not pinned (at worst the one just made): first
	 * the waiting one whose deadline comes first (expire() dropped those past it), then
	 * from the eviction order, setting aside the pinned ones it meets.
	 */
	private void evictOne(List<Breaker> removedOut) {
		while (!waiting.isEmpty()) {
			Entry soonest = waiting.pollFirst();
			visited++;
			soonest.aside = Entry.IN_ORDER;
			if (pinned(soonest)) {
				setAside(soonest.key, soonest, Entry.PINNED);
				continue;
			}
			index.remove(soonest.key);
			removed(soonest.breaker, removedOut);
			return;
		}
		Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
		while (it.hasNext()) {
			Map.Entry<String, Entry> eldest = it.next();
			visited++;
			it.remove();
			if (pinned(eldest.getValue()) && it.hasNext()) {
				setAside(eldest.getKey(), eldest.getValue(), Entry.PINNED);
				continue;
			}
			index.remove(eldest.getKey());
			removed(eldest.getValue().breaker, removedOut);
			return;
		}
	}

	/**
	 * Looks again at the child longest in {@code aside}: still pinned, to the back; else
	 * waiting, back in the eviction order, or gone if idle.
	 */
	private void recheck(LinkedHashMap<String, Entry> aside, long now, List<Breaker> removedOut) {
		Iterator<Map.Entry<String, Entry>> it = aside.entrySet().iterator();
		if (!it.hasNext()) {
			return;
		}
		Map.Entry<String, Entry> longest = it.next();
		visited++;
		it.remove();
		longest.getValue().aside = Entry.IN_ORDER;
		place(longest.getKey(), longest.getValue(), now, removedOut);
	}

	/**
	 * Places a child out of the eviction order: pinned, waiting, back in the eviction
	 * order if fresh, or gone.
	 */
	private void place(String key, Entry entry, long now, List<Breaker> removedOut) {
		long left;
		if (pinned(entry)) {
			setAside(key, entry, Entry.PINNED);
		}
		else if (now - entry.lastUsed < idleNanos) {
			entries.put(key, entry);
		}
		else if ((left = waitLeft(entry)) > 0) {
			entry.deadline = plus(now - origin, left);
			entry.seq = waitingSeq++;
			setAside(key, entry, Entry.WAITING);
		}
		else {
			index.remove(key);
			removed(entry.breaker, removedOut);
		}
	}

	private void setAside(String key, Entry entry, byte aside) {
		entry.aside = aside;
		if (aside == Entry.PINNED) {
			pinned.put(key, entry);
		}
		else {
			waiting.add(entry);
		}
	}

	private void drop(String key, Entry entry, List<Breaker> removedOut) {
		if (entry.aside == Entry.PINNED) {
			pinned.remove(key);
		}
		else if (entry.aside == Entry.WAITING) {
			waiting.remove(entry);
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
		return waitLeft(entry) > 0;
	}

	/**
	 * Nanoseconds until the child's open episode no longer keeps it (idleExpiry after its
	 * open wait ends); 0 or less when it keeps it no more, or is in none. A HALF_OPEN
	 * child that followed the OPEN state seen last counts from that open wait's end (or
	 * its own start, if earlier: an operator's halfOpen()), not from when a read of its
	 * state moved it; else from its own start.
	 */
	private long waitLeft(Entry entry) {
		Breaker breaker = entry.breaker;
		BreakerState state = breaker.current();
		long end;
		if (state instanceof OpenState open) {
			end = open.until();
			entry.openEnd = end;
			entry.openGeneration = open.generation;
		}
		else if (state.state == State.HALF_OPEN) {
			end = (state.generation == entry.openGeneration + 1) ? Math.min(entry.openEnd, state.enteredNanos)
					: state.enteredNanos;
		}
		else {
			return 0;
		}
		return plus(end - breaker.now(), idleNanos);
	}

	private static long plus(long a, long b) {
		long sum = a + b;
		// overflow only when both have the same sign and the sum has the other
		if (((a ^ sum) & (b ^ sum)) < 0) {
			return (a < 0) ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
		return sum;
	}

	private static void removed(Breaker breaker, List<Breaker> removedOut) {
		breaker.markRemoved();
		removedOut.add(breaker);
	}

	/** One child, and its place (guarded by the group's lock). */
	static final class Entry {

		static final byte IN_ORDER = 0;

		static final byte PINNED = 1;

		static final byte WAITING = 2;

		final String key;

		final Breaker breaker;

		long lastUsed;

		/** While WAITING: when it stops waiting (group ticker nanos since origin). */
		long deadline;

		/**
		 * While WAITING: orders it after those set aside earlier with the same deadline.
		 */
		long seq;

		/**
		 * The end of the open wait last seen (child's engine time), and that OPEN state's
		 * generation: a HALF_OPEN one after counts idle from there.
		 */
		long openEnd;

		long openGeneration = -2;

		/** Overrides being applied to it ({@link #hold}). */
		int holds;

		/**
		 * Where it is: IN_ORDER (the eviction order), or set aside, PINNED or WAITING.
		 */
		byte aside = IN_ORDER;

		Entry(String key, Breaker breaker, long lastUsed) {
			this.key = key;
			this.breaker = breaker;
			this.lastUsed = lastUsed;
		}

	}

}
