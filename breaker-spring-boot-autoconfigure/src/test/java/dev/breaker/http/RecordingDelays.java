package dev.breaker.http;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;

import dev.breaker.aspect.DelayScheduler;

/**
 * A {@link DelayScheduler} for tests: every pause is recorded and over at once, nothing
 * really waits.
 */
final class RecordingDelays implements DelayScheduler {

	final List<Duration> pauses = new CopyOnWriteArrayList<>();

	@Override
	public void sleep(Duration pause) {
		this.pauses.add(pause);
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		this.pauses.add(delay);
		task.run();
		return CompletableFuture.completedFuture(null);
	}

}
