/**
 * Fleet mode: breakers of many replicas share trips (by quorum), closes, half-open probes and operators' overrides
 * through Redis, off the call path.
 */
package dev.breaker.redis;
