/**
 * Configuration of the {@code @CircuitGuarded} advisor: its interceptor, guarded methods
 * and retry delays.
 */
@NullMarked
package dev.breaker.autoconfigure.aspect;

import org.jspecify.annotations.NullMarked;
