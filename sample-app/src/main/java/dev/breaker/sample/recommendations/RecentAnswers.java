package dev.breaker.sample.recommendations;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last good live answer per user, kept for a while to serve when the service fails.
 */
final class RecentAnswers {

	private record Entry(Recommendations answer, Instant at) {
	}

	private final ConcurrentHashMap<String, Entry> answers = new ConcurrentHashMap<>();

	private final Duration ttl;

	private final int maxUsers;

	private final Clock clock;

	RecentAnswers(Duration ttl, int maxUsers, Clock clock) {
		this.ttl = ttl;
		this.maxUsers = maxUsers;
		this.clock = clock;
	}

	void remember(Recommendations answer) {
		if (this.answers.size() >= this.maxUsers && !this.answers.containsKey(answer.userId())) {
			evictExpired();
			if (this.answers.size() >= this.maxUsers) {
				// full of fresh answers: keep those rather than grow without bound
				return;
			}
		}
		this.answers.put(answer.userId(), new Entry(answer, this.clock.instant()));
	}

	/** The user's last good answer if it is younger than the time to live. */
	Optional<Recommendations> find(String userId) {
		Entry entry = this.answers.get(userId);
		if (entry == null || isExpired(entry)) {
			return Optional.empty();
		}
		return Optional.of(entry.answer());
	}

	private void evictExpired() {
		this.answers.values().removeIf(this::isExpired);
	}

	private boolean isExpired(Entry entry) {
		return entry.at().plus(this.ttl).isBefore(this.clock.instant());
	}

}
