/**
 * Spring Cloud Gateway's {@code CircuitBreaker} route filter on breaker.
 */
@NullMarked
package dev.breaker.cloud.gateway;

import org.jspecify.annotations.NullMarked;
