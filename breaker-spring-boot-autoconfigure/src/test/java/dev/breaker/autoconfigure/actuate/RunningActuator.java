package dev.breaker.autoconfigure.actuate;

import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.breaker.core.BreakerRegistry;

/**
 * What the tests of a running application's actuator share: its breakers, and its
 * actuator over loopback HTTP on the random port it started on. Each test class names the
 * application and its properties in its own {@code @SpringBootTest}; its own
 * {@code @BeforeEach} methods run after {@link #connect()}.
 */
abstract class RunningActuator {

	@Autowired
	BreakerRegistry registry;

	@LocalServerPort
	int port;

	Actuator actuator;

	@BeforeEach
	final void connect() {
		this.actuator = new Actuator(this.port);
	}

}
