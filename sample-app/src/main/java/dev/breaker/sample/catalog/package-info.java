/**
 * The product catalog: served from memory, needs no dependency and must stay fast
 * whatever happens elsewhere.
 */
@NullMarked
package dev.breaker.sample.catalog;

import org.jspecify.annotations.NullMarked;
