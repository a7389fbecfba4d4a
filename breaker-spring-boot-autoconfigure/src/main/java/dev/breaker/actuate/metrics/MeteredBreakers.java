package dev.breaker.actuate.metrics;

import java.util.Set;

import dev.breaker.core.Breaker;
import dev.breaker.http.HostBreakers;

/**
 * Which breakers get meters of their own: every top-level breaker; a per-tenant child
 * only with {@code tenantTags}; a per-host child ({@value HostBreakers#GROUP} group) with
 * {@code hostTags}, or when its host is one the operator named ({@code namedHosts}, full
 * breaker names such as {@code http:api.acme.com}).
 * <p>
 * Tenants and hosts found in traffic can come from user input (a tenant id, a URL), so
 * without the switches their number, and the number of series, would have no bound but
 * the registry's.
 *
 * @param tenantTags whether per-tenant children get meters, tagged {@code tenant}
 * @param hostTags whether every per-host child gets meters
 * @param namedHosts the per-host children that get meters regardless of {@code hostTags},
 * by full name
 */
public record MeteredBreakers(boolean tenantTags, boolean hostTags, Set<String> namedHosts) {

	public MeteredBreakers {
		namedHosts = Set.copyOf(namedHosts);
	}

	/** Whether a breaker of the registry gets meters of its own. */
	public boolean measured(Breaker breaker) {
		if (breaker.key() == null) {
			return true;
		}
		if (HostBreakers.GROUP.equals(breaker.group())) {
			return this.hostTags || this.namedHosts.contains(breaker.name());
		}
		return this.tenantTags;
	}

}
