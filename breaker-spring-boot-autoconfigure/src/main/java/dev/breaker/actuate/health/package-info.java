/** A health contributor that reports every breaker's state and, only when asked to, lets an open breaker change health. */
package dev.breaker.actuate.health;
