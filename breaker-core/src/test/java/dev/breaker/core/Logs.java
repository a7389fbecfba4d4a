package dev.breaker.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what the engine logs through System.Logger (backed by java.util.logging here)
 * while open.
 */
final class Logs implements AutoCloseable {

	private final Logger logger;

	private final List<LogRecord> records = new CopyOnWriteArrayList<>();

	private final Handler handler = new Handler() {
		@Override
		public void publish(LogRecord record) {
			records.add(record);
		}

		@Override
		public void flush() {
		}

		@Override
		public void close() {
		}
	};

	private Logs(String name) {
		logger = Logger.getLogger(name);
		handler.setLevel(Level.ALL);
		logger.addHandler(handler);
	}

	static Logs of(Class<?> type) {
		return new Logs(type.getName());
	}

	/** The messages logged at WARNING so far. */
	List<String> warnings() {
		return records.stream().filter(r -> r.getLevel() == Level.WARNING).map(LogRecord::getMessage).toList();
	}

	@Override
	public void close() {
		logger.removeHandler(handler);
	}

}
