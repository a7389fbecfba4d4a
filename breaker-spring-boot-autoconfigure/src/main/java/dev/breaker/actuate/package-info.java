/**
 * What the endpoint, health contributor and meters share: every breaker of a registry,
 * grouped.
 */
@NullMarked
package dev.breaker.actuate;

import org.jspecify.annotations.NullMarked;
