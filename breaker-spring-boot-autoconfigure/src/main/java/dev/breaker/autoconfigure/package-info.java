/**
 * Auto-configuration of the breaker registry, its properties, events and start-up failure reports.
 */
package dev.breaker.autoconfigure;
