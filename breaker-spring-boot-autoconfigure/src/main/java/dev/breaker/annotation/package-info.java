/**
 * The annotation that guards a method with a circuit breaker.
 */
@NullMarked
package dev.breaker.annotation;

import org.jspecify.annotations.NullMarked;
