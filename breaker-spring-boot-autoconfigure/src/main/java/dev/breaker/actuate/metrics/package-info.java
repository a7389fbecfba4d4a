/** Micrometer meters over the engine's counters and snapshots, named {@code breaker_*} in Prometheus. */
package dev.breaker.actuate.metrics;
