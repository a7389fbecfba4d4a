package dev.breaker.sample;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.sample.dependency.ChaosMode;
import dev.breaker.sample.dependency.Dependencies;
import dev.breaker.sample.dependency.DependencyServer;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What the tests of the running checkout app share: its breakers, its dependency servers
 * and a client of its HTTP API on the random port it started on; before each test every
 * dependency is healthy and every breaker closed, as at start-up. Each test class
 * configures the app in its own {@code @SpringBootTest}.
 */
abstract class RunningCheckout {

	@LocalServerPort
	int port;

	@Autowired
	BreakerRegistry registry;

	@Autowired
	Dependencies dependencies;

	CheckoutClient client;

	@BeforeEach
	final void healthyAndClosed() {
		this.client = new CheckoutClient(this.port);
		for (DependencyServer dependency : this.dependencies.all()) {
			dependency.chaos(dependency.chaos().withMode(ChaosMode.HEALTHY));
		}
		for (Breaker breaker : this.registry.breakers()) {
			breaker.reset();
			this.registry.children(breaker.name()).forEach(Breaker::reset);
		}
		this.registry.children("http").forEach(Breaker::reset);
	}

}
