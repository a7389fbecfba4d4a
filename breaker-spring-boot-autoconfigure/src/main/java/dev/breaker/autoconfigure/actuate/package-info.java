/** Auto-configuration of the breakers endpoint, health contributor and metrics. */
package dev.breaker.autoconfigure.actuate;
