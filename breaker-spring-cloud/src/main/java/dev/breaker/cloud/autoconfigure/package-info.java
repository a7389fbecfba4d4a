/**
 * Auto-configuration of breaker's Spring Cloud CircuitBreaker factories.
 */
package dev.breaker.cloud.autoconfigure;
