/**
 * The circuit breaker engine: {@link dev.breaker.core.Breaker}, its config, registry and
 * snapshots.
 */
@NullMarked
package dev.breaker.core;

import org.jspecify.annotations.NullMarked;
