/**
 * Auto-configuration of the breaker registry, its properties, events and start-up failure
 * reports.
 */
@NullMarked
package dev.breaker.autoconfigure;

import org.jspecify.annotations.NullMarked;
