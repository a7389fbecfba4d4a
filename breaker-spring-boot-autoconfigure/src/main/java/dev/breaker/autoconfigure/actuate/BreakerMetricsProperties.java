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

	public boolean isTenantTags() {
		return this.tenantTags;
	}

	public void setTenantTags(boolean tenantTags) {
		this.tenantTags = tenantTags;
	}

}
