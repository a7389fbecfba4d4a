/**
 * Spring Cloud CircuitBreaker on breaker's registry: the factories Gateway, OpenFeign and
 * other consumers use.
 */
@NullMarked
package dev.breaker.cloud;

import org.jspecify.annotations.NullMarked;
