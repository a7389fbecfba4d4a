/**
 * The advisor behind {@code @CircuitGuarded}: its interceptor, fallback resolution,
 * retries, timeouts, tenants.
 */
@NullMarked
package dev.breaker.aspect;

import org.jspecify.annotations.NullMarked;
