/**
 * Spring Cloud CircuitBreaker on breaker's registry: the factories Gateway, OpenFeign and other consumers use.
 */
package dev.breaker.cloud;
