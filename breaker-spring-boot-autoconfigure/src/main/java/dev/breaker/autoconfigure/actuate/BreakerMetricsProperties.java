package dev.breaker.autoconfigure.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the breaker meters.
 */
@ConfigurationProperties("breaker.metrics")
public class BreakerMetricsProperties {

	/**
	 * Whether per-tenant child breakers get meters of their own, tagged 'tenant'. Off by
	 * default: one series per tenant can overwhelm Prometheus.
	 */
	private boolean tenantTags = false;

	/**
	 * Whether the per-host breakers of hosts found in the HTTP clients' traffic get
	 * meters of their own, named after the host (http:api.acme.com). Off by default: a
	 * URL built from user input could add series for every host it names. Hosts under
	 * breaker.http.instances get meters either way.
	 */
	private boolean hostTags = false;

	public boolean isTenantTags() {
		return this.tenantTags;
	}

	public void setTenantTags(boolean tenantTags) {
		this.tenantTags = tenantTags;
	}

	public boolean isHostTags() {
		return this.hostTags;
	}

	public void setHostTags(boolean hostTags) {
		this.hostTags = hostTags;
	}

}
