/**
 * Recommendations: per-user breakers with tiered fallbacks (precomputed, last good
 * answer, popular).
 */
@NullMarked
package dev.breaker.sample.recommendations;

import org.jspecify.annotations.NullMarked;
