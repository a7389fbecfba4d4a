/**
 * Auto-configuration of breaker's Spring Cloud CircuitBreaker factories.
 */
@NullMarked
package dev.breaker.cloud.autoconfigure;

import org.jspecify.annotations.NullMarked;
