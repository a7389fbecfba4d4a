/** Auto-configuration of the breakers endpoint, health contributor and metrics. */
@NullMarked
package dev.breaker.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
