/** The {@code /actuator/breakers} endpoint: every breaker's state, its full snapshot, and operator overrides. */
package dev.breaker.actuate.endpoint;
