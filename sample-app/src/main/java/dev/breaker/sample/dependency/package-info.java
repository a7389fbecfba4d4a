/**
 * The sample's remote dependencies: real HTTP servers on loopback whose behaviour chaos
 * control can change.
 */
@NullMarked
package dev.breaker.sample.dependency;

import org.jspecify.annotations.NullMarked;
