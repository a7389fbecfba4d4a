package dev.breaker.sample.demo;

import java.util.concurrent.Executor;

import org.apache.catalina.connector.Connector;

import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;

/** The app's request threads: how many are busy and how many requests wait for one. */
final class ServerThreads {

	/**
	 * A reading of the pool.
	 *
	 * @param busy threads serving a request
	 * @param max the pool's size
	 * @param waiting requests accepted but waiting for a thread
	 */
	record Reading(int busy, int max, int waiting) {
	}

	private final Executor executor;

	ServerThreads(WebServer webServer) {
		Connector connector = ((TomcatWebServer) webServer).getTomcat().getConnector();
		this.executor = connector.getProtocolHandler().getExecutor();
	}

	Reading read() {
		if (this.executor instanceof org.apache.tomcat.util.threads.ThreadPoolExecutor pool) {
			return new Reading(pool.getActiveCount(), pool.getMaximumPoolSize(), pool.getQueue().size());
		}
		if (this.executor instanceof java.util.concurrent.ThreadPoolExecutor pool) {
			return new Reading(pool.getActiveCount(), pool.getMaximumPoolSize(), pool.getQueue().size());
		}
		return new Reading(-1, -1, -1);
	}

}
