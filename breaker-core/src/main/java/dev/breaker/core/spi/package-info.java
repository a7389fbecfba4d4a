/**
 * For shared-state store implementations: the hooks that apply other replicas' verdicts
 * to a breaker.
 */
@NullMarked
package dev.breaker.core.spi;

import org.jspecify.annotations.NullMarked;
