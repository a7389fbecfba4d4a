/** Auto-configuration of breaker events and key values on Micrometer observations. */
package dev.breaker.autoconfigure.observation;
