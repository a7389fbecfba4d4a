/** What the endpoint, health contributor and meters share: every breaker of a registry, grouped. */
package dev.breaker.actuate;
