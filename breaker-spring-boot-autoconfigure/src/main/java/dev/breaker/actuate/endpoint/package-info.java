/**
 * The {@code /actuator/breakers} endpoint: every breaker's state, its full snapshot, and
 * operator overrides.
 */
@NullMarked
package dev.breaker.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
