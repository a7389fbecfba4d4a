package dev.breaker.redis;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The order of one breaker's publishes ({@link FleetEntry#publishes()}): each is sent on
 * the sync thread once the one before it has been handed to Redis (one connection then
 * keeps them in order), and a close or an override also once the last trip has been
 * answered, so it knows the episode the trip ended up in.
 */
final class PublishOrder {

	private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

	/** What a publish waits for before it is sent. */
	enum Publish {

		/**
		 * A trip: the previous publish has been sent (one connection keeps them in
		 * order).
		 */
		TRIP,
		/**
		 * A close or an override: also the last trip has been answered, so it knows the
		 * episode the trip ended up in.
		 */
		AFTER_TRIP

	}

	/** When this breaker's last publish has been handed to Redis. */
	private CompletableFuture<?> lastSent = DONE;

	/**
	 * When this breaker's last trip has been answered (and its answer applied: the
	 * episode it ended up in).
	 */
	private CompletableFuture<?> lastTripAnswered = DONE;

	/**
	 * Runs {@code publish} (which sends its command and returns the future of its answer)
	 * on {@code thread}, once what {@code kind} waits for is done: one breaker's
	 * publishes reach Redis in the order they were made, and a close is never sent before
	 * the trip it follows was answered.
	 */
	void queue(Publish kind, SyncThread thread, Supplier<CompletableFuture<?>> publish) {
		CompletableFuture<Object> sent = new CompletableFuture<>();
		CompletableFuture<Object> answered = new CompletableFuture<>();
		CompletableFuture<?> after;
		synchronized (this) {
			after = (kind == Publish.TRIP) ? lastSent : CompletableFuture.allOf(lastSent, lastTripAnswered);
			lastSent = sent;
			if (kind == Publish.TRIP) {
				lastTripAnswered = answered;
			}
		}
		after.whenComplete((ignored, error) -> {
			boolean queued = thread.submit(() -> {
				try {
					CompletableFuture<?> answer = publish.get();
					sent.complete(null);
					answer.whenComplete((done, failed) -> answered.complete(null));
				}
				catch (RuntimeException e) {
					sent.complete(null);
					answered.complete(null);
					throw e;
				}
			});
			if (!queued) {
				sent.complete(null);
				answered.complete(null);
			}
		});
	}

}
