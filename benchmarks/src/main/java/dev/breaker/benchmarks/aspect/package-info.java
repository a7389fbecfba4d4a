/**
 * JMH benchmark of the cost of guarding a Spring bean: plain call, no-op aspect,
 * {@code @CircuitGuarded}, Resilience4j's {@code @CircuitBreaker}.
 */
@NullMarked
package dev.breaker.benchmarks.aspect;

import org.jspecify.annotations.NullMarked;
