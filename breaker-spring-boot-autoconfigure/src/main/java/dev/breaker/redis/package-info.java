/**
 * Fleet mode: breakers of many replicas share trips, closes and half-open probes through Redis, off the call path.
 */
package dev.breaker.redis;
