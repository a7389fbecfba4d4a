/**
 * Micrometer meters over the engine's counters and snapshots, named {@code breaker_*} in
 * Prometheus.
 */
@NullMarked
package dev.breaker.actuate.metrics;

import org.jspecify.annotations.NullMarked;
