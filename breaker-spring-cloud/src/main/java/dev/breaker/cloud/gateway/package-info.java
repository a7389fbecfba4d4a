/**
 * Spring Cloud Gateway's {@code CircuitBreaker} route filter on breaker.
 */
package dev.breaker.cloud.gateway;
