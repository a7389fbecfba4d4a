package dev.breaker.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.security.SecureRandom;

/**
 * Which children (tenants) the failures in a group breaker's window came from, so that
 * the group trips on breadth: failures from at least {@code minFailing} children, never
 * because of one loud tenant.
 */
final class TenantBreadth {

	/*
	 * A table of minFailing words, each (epoch of a child's latest failure) << 24 | the
	 * child's id: a 24-bit hash of its key, or ANONYMOUS for a call made on the group
	 * itself, without a tenant. Word 0 is empty. An entry is fresh while its epoch lies
	 * in the window; a stale entry is free to reuse.
	 *
	 * failed(): one pass over the words (volatile reads). The child's own fresh entry:
	 * done, after at most one CAS to move its epoch forward. Else it CASes its word into
	 * the first free one (empty or stale); a lost CAS rescans. With every word fresh and
	 * none its own, minFailing children have failed within the window already and there
	 * is nothing to add. No lock, no allocation, and the table stays minFailing words
	 * whether the group has ten tenants or ten thousand.
	 *
	 * broad(): the distinct ids among fresh entries. The answer changes only when an
	 * entry becomes fresh (which bumps `version`) or when the epoch moves on (entries
	 * leave the window), so it is cached in one word: (epoch, version, answer). The cache
	 * is keyed by the version read before counting: an entry taken meanwhile makes the
	 * next caller count again. So a loud tenant's failures cost a few volatile reads
	 * here, and a new failing tenant one count of at most minFailing^2 reads.
	 *
	 * No failure is lost while fewer than minFailing other children are fresh: a word is
	 * only replaced when stale, and a word fresh for one thread's epoch is fresh for any
	 * earlier epoch too (a thread that read the ticker before a roll-over never
	 * overwrites a later entry). Two threads with one new id pick the same first free
	 * word, and the loser of that CAS finds the winner's entry; only a word going stale
	 * between their scans can give one id two words, which the count dedupes. Epochs keep
	 * 40 bits: an entry untouched for 2^39 buckets (17 years of 1ms buckets) would count
	 * as fresh again.
	 *
	 * Hash collisions: two children with one id count as one. An id is a seeded 64-bit
	 * mix of the key's characters (id()), not its String.hashCode (which keys like "Aa"
	 * and "BB" share by construction), and the seed is drawn at start-up, so a user who
	 * picks their own key (a username, an org slug) cannot compute one that shares a
	 * victim's id. A user cannot spread their own failures over several ids either (one
	 * key, one id), so a collision only ever lets the group trip (or reopen) later, when
	 * minFailing tenants fail and two of them happen to collide (about minFailing^2 /
	 * 2^25 for distinct keys), while each tenant's own breaker still opens. The mix reads
	 * every character of the key (at most maxKeyLength) on each failure it records.
	 */

	private static final int ID_BITS = 24;

	private static final long ID_MASK = (1L << ID_BITS) - 1;

	private static final long EPOCH_MASK = (1L << 40) - 1;

	static final long ANONYMOUS = 1;

	/**
	 * Keys' ids differ from process to process: nobody outside can pick a colliding key.
	 */
	private static final long SEED = new SecureRandom().nextLong();

	private static final long VERSION_MASK = (1L << 22) - 1;

	private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

	private static final VarHandle VERSION;

	private static final VarHandle VERDICT;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			VERSION = lookup.findVarHandle(TenantBreadth.class, "version", long.class);
			VERDICT = lookup.findVarHandle(TenantBreadth.class, "verdict", long.class);
		}
		catch (ReflectiveOperationException e) {
			throw new ExceptionInInitializerError(e);
		}
	}

	private final int minFailing;

	private final long bucketNanos;

	private final long buckets;

	private final long[] words;

	private volatile long version;

	/**
	 * epoch << 24 | (version & VERSION_MASK) << 2 | 2 (valid) | answer; 0 = nothing
	 * cached.
	 */
	private volatile long verdict;

	TenantBreadth(int minFailing, BreakerConfig config) {
		this.minFailing = minFailing;
		this.bucketNanos = config.bucket().toNanos();
		this.buckets = config.window().toNanos() / bucketNanos;
		this.words = new long[minFailing];
	}

	/**
	 * Records a failure (or slow call) of {@code child}, or of a call on the group itself
	 * when null.
	 */
	void failed(Breaker child, long now) {
		long epoch = Math.floorDiv(now, bucketNanos) & EPOCH_MASK;
		long id = child == null ? ANONYMOUS : id(child.key());
		long word = epoch << ID_BITS | id;
		for (;;) {
			int free = -1;
			long freeWord = 0;
			boolean retry = false;
			for (int i = 0; i < words.length; i++) {
				long w = (long) WORDS.getVolatile(words, i);
				boolean fresh = w != 0 && fresh(w, epoch);
				if (w != 0 && (w & ID_MASK) == id) {
					if (fresh && age(w, epoch) <= 0) {
						return; // this epoch (or a later one) is recorded already
					}
					if (WORDS.compareAndSet(words, i, w, word)) {
						if (!fresh) {
							VERSION.getAndAdd(this, 1L);
						}
						return;
					}
					retry = true;
					break;
				}
				if (free < 0 && !fresh) {
					free = i;
					freeWord = w;
				}
			}
			if (retry) {
				continue;
			}
			if (free < 0) {
				// every word fresh and another child's: minFailing children just failed
				return;
			}
			if (WORDS.compareAndSet(words, free, freeWord, word)) {
				VERSION.getAndAdd(this, 1L);
				return;
			}
		}
	}

	/**
	 * Whether the failures in the window ending at {@code now} are broad enough to trip
	 * the group: they came from at least minFailing children (a call without a tenant
	 * counting as one), or from no child at all.
	 */
	boolean broad(long now) {
		long epoch = Math.floorDiv(now, bucketNanos) & EPOCH_MASK;
		long v = (long) VERSION.getVolatile(this);
		long key = epoch << ID_BITS | (v & VERSION_MASK) << 2 | 2;
		long cached = verdict;
		if ((cached & ~1L) == key) {
			return (cached & 1) != 0;
		}
		boolean answer = count(epoch);
		verdict = key | (answer ? 1 : 0);
		return answer;
	}

	private boolean count(long epoch) {
		int fresh = 0;
		int distinct = 0;
		boolean anyChild = false;
		for (int i = 0; i < words.length; i++) {
			long w = (long) WORDS.getVolatile(words, i);
			if (w == 0 || !fresh(w, epoch)) {
				continue;
			}
			fresh++;
			long id = w & ID_MASK;
			anyChild |= id != ANONYMOUS;
			boolean seen = false;
			for (int j = 0; j < i && !seen; j++) {
				long earlier = (long) WORDS.getVolatile(words, j);
				seen = earlier != 0 && (earlier & ID_MASK) == id && fresh(earlier, epoch);
			}
			if (!seen) {
				distinct++;
			}
		}
		return !anyChild || distinct >= minFailing || fresh == words.length;
	}

	/**
	 * Whether an entry's epoch lies in the window ending at {@code epoch} (or after it: a
	 * racing writer's).
	 */
	private boolean fresh(long w, long epoch) {
		return age(w, epoch) < buckets;
	}

	/**
	 * Buckets from the entry's epoch to {@code epoch}, negative when the entry is later;
	 * 40-bit wrap-around.
	 */
	private static long age(long w, long epoch) {
		return ((epoch - (w >>> ID_BITS)) << ID_BITS) >> ID_BITS;
	}

	/**
	 * A 24-bit id for a key, never 0 (empty) or {@link #ANONYMOUS}: a 64-bit mix of its
	 * characters, seeded per process, so keys made to share a {@link String#hashCode} (or
	 * anything else computable without the seed) get unrelated ids. One multiply and
	 * shift per character, no allocation.
	 */
	static long id(String key) {
		long h = SEED ^ key.length();
		for (int i = 0; i < key.length(); i++) {
			h = (h ^ key.charAt(i)) * 0x9E3779B97F4A7C15L;
			h ^= h >>> 29;
		}
		h ^= h >>> 33;
		h *= 0xFF51AFD7ED558CCDL;
		h ^= h >>> 33;
		h *= 0xC4CEB9FE1A85EC53L;
		h ^= h >>> 33;
		return 2 + Long.remainderUnsigned(h, ID_MASK - 1);
	}

}
