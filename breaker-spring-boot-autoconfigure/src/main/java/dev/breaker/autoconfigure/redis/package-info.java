/**
 * Auto-configuration of fleet mode: breakers share trips, closes and half-open probes through Redis ({@code breaker.shared.redis.*}).
 */
package dev.breaker.autoconfigure.redis;
