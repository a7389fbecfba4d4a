/** The product catalog: served from memory, needs no dependency and must stay fast whatever happens elsewhere. */
package dev.breaker.sample.catalog;
