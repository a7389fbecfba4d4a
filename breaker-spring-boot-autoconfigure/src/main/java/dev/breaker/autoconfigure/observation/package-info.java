/** Auto-configuration of breaker events and key values on Micrometer observations. */
@NullMarked
package dev.breaker.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
