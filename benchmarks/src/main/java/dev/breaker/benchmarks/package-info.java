/**
 * JMH benchmarks of the engine's closed and open paths beside Resilience4j, Failsafe and
 * a naive mutex breaker.
 */
@NullMarked
package dev.breaker.benchmarks;

import org.jspecify.annotations.NullMarked;
