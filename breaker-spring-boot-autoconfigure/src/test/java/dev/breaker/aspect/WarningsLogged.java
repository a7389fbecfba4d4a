package dev.breaker.aspect;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The warnings a logger logs while this is open (java.util.logging, where
 * {@link System.Logger} writes here).
 */
public final class WarningsLogged extends Handler implements AutoCloseable {

	private final Logger logger;

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private WarningsLogged(String name) {
		this.logger = Logger.getLogger(name);
		this.logger.addHandler(this);
	}

	/** Starts listening to the logger {@code name}. */
	public static WarningsLogged by(String name) {
		return new WarningsLogged(name);
	}

	/** The warnings' messages so far, in order. */
	public List<String> messages() {
		return List.copyOf(this.warnings);
	}

	@Override
	public void publish(LogRecord record) {
		if (record.getLevel() == Level.WARNING) {
			this.warnings.add(record.getMessage());
		}
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
		this.logger.removeHandler(this);
	}

}
