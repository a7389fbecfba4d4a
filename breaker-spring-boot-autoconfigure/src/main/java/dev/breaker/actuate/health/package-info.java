/**
 * A health contributor that reports every breaker's state and, only when asked to, lets
 * an open breaker change health.
 */
@NullMarked
package dev.breaker.actuate.health;

import org.jspecify.annotations.NullMarked;
