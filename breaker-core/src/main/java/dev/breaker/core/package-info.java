/** The circuit breaker engine: {@link dev.breaker.core.Breaker}, its config, registry and snapshots. */
package dev.breaker.core;
