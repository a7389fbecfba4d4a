package dev.breaker.aspect;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The warnings a logger logs while this is open (java.util.logging, where
 * {@link System.Logger} writes here), and its debug lines when asked for.
 */
public final class WarningsLogged extends Handler implements AutoCloseable {

	private final Logger logger;

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private final List<String> debugs = new CopyOnWriteArrayList<>();

	private final Level level;

	private WarningsLogged(String name, boolean debug) {
		this.logger = Logger.getLogger(name);
		this.level = this.logger.getLevel();
		if (debug) {
			this.logger.setLevel(Level.FINE);
		}
		this.logger.addHandler(this);
	}

	/**
	 * Starts listening to the logger {@code name}, its debug lines too (enabled until
	 * this is closed).
	 */
	public static WarningsLogged withDebug(String name) {
		return new WarningsLogged(name, true);
	}

	/** The debug lines' messages so far, in order ({@link #withDebug}). */
	public List<String> debugs() {
		return List.copyOf(this.debugs);
	}

	/** Starts listening to the logger {@code name}. */
	public static WarningsLogged by(String name) {
		return new WarningsLogged(name, false);
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
		else if (record.getLevel() == Level.FINE) {
			this.debugs.add(record.getMessage());
		}
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
		this.logger.removeHandler(this);
		this.logger.setLevel(this.level);
	}

}
