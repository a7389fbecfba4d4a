package dev.breaker.autoconfigure.http;

import java.util.Set;

/**
 * The hosts configured under {@code breaker.http.instances}, by the full name of their
 * breaker ({@code http:api.acme.com}): the hosts an operator named, as opposed to those
 * found in traffic.
 */
public final class ConfiguredHosts {

	private final Set<String> breakerNames;

	ConfiguredHosts(Set<String> breakerNames) {
		this.breakerNames = Set.copyOf(breakerNames);
	}

	/**
	 * The full names of the breakers of the configured hosts; a host written with
	 * {@code :80} or {@code :443} names both breakers its requests can reach.
	 */
	public Set<String> breakerNames() {
		return this.breakerNames;
	}

}
