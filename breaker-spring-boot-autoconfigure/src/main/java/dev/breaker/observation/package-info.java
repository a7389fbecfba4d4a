/**
 * Tracing: what a breaker did to a call, on the Micrometer observation the call runs in.
 */
@NullMarked
package dev.breaker.observation;

import org.jspecify.annotations.NullMarked;
