/**
 * Fleet mode: breakers of many replicas share trips (by quorum), closes, half-open probes
 * and operators' overrides through Redis, off the call path.
 */
@NullMarked
package dev.breaker.redis;

import org.jspecify.annotations.NullMarked;
