/** Recommendations: per-user breakers with tiered fallbacks (precomputed, last good answer, popular). */
package dev.breaker.sample.recommendations;
