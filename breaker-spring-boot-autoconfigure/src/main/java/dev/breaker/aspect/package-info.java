/**
 * The aspect behind {@code @CircuitGuarded}: fallback resolution, retries, timeouts, tenants.
 */
package dev.breaker.aspect;
