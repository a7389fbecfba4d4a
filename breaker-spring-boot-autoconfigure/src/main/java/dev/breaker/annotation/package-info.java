/**
 * The annotation that guards a method with a circuit breaker.
 */
package dev.breaker.annotation;
