/**
 * The advisor behind {@code @CircuitGuarded}: its interceptor, fallback resolution, retries, timeouts, tenants.
 */
package dev.breaker.aspect;
