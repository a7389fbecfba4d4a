package dev.breaker.autoconfigure.actuate;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.actuate.health.BreakersHealthIndicator;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.BreakerProperties.OpenHealth;
import dev.breaker.autoconfigure.ConfiguredBreakers;
import dev.breaker.autoconfigure.http.HostHealthWhenOpen;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;

/**
 * Auto-configuration of the {@code breakers} health contributor
 * ({@code management.health.breakers.enabled}).
 */
@AutoConfiguration(after = BreakerAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(BreakerRegistry.class)
@ConditionalOnEnabledHealthIndicator("breakers")
@Import(BreakerTreeConfiguration.class)
public final class BreakerHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "breakersHealthIndicator")
	BreakersHealthIndicator breakersHealthIndicator(BreakerTree tree, ConfiguredBreakers configured,
			ObjectProvider<HostHealthWhenOpen> hosts) {
		HostHealthWhenOpen configuredHosts = hosts.getIfAvailable();
		return new BreakersHealthIndicator(tree, (breaker) -> statusWhenOpen(breaker, configured, configuredHosts));
	}

	/**
	 * The {@code health-when-open} of a host configured under
	 * {@code breaker.http.instances}, else of a breaker's own instance, else of its
	 * parent's (for a per-tenant or per-host child), inherited from
	 * {@code breaker.defaults}; UP when set nowhere.
	 */
	static Status statusWhenOpen(Breaker breaker, ConfiguredBreakers configured, @Nullable HostHealthWhenOpen hosts) {
		OpenHealth host = (hosts != null) ? hosts.of(breaker) : null;
		return switch ((host != null) ? host : configured.of(breaker).healthWhenOpen()) {
			case UP -> Status.UP;
			case OUT_OF_SERVICE -> Status.OUT_OF_SERVICE;
			case DOWN -> Status.DOWN;
		};
	}

}
