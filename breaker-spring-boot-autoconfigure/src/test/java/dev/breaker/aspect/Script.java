package dev.breaker.aspect;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a fake dependency does on each call, in order: throw the next exception or return
 * the next value; "live" once the script runs out.
 */
final class Script {

	private final Deque<Object> steps = new ConcurrentLinkedDeque<>();

	private final AtomicInteger calls = new AtomicInteger();

	Script then(Object... steps) {
		for (Object step : steps) {
			this.steps.add(step);
		}
		return this;
	}

	Object next() throws Exception {
		this.calls.incrementAndGet();
		Object step = this.steps.poll();
		if (step instanceof Exception ex) {
			throw ex;
		}
		if (step instanceof Error error) {
			throw error;
		}
		return (step != null) ? step : "live";
	}

	int calls() {
		return this.calls.get();
	}

}
