/**
 * Auto-configuration of fleet mode: breakers share trips, closes and half-open probes
 * through Redis ({@code breaker.shared.redis.*}).
 */
@NullMarked
package dev.breaker.autoconfigure.redis;

import org.jspecify.annotations.NullMarked;
