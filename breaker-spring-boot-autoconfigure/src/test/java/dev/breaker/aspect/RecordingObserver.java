package dev.breaker.aspect;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Remembers every fallback run as "breaker:fallback:succeeded". */
final class RecordingObserver implements FallbackObserver {

	final List<String> runs = new CopyOnWriteArrayList<>();

	@Override
	public void onFallback(String breaker, String fallbackMethod, boolean succeeded) {
		this.runs.add(breaker + ":" + fallbackMethod + ":" + succeeded);
	}

}
