package dev.breaker.actuate.endpoint;

import java.util.List;

import dev.breaker.actuate.history.Second;

/**
 * One breaker's history as {@code /actuator/breakers/{name}/history} shows it.
 *
 * @param name the breaker's full name
 * @param interval how long each entry covers, ISO-8601 ({@code PT1S})
 * @param seconds the seconds kept, oldest first, at most five minutes of them
 */
public record HistoryDescriptor(String name, String interval, List<Second> seconds) {

	static final String SECTION = "history";

	static HistoryDescriptor of(String name, List<Second> seconds) {
		return new HistoryDescriptor(name, "PT1S", seconds);
	}

}
