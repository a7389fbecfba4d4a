/**
 * The last five minutes of each breaker, one summary per second, for the live page and
 * operators.
 */
@NullMarked
package dev.breaker.actuate.history;

import org.jspecify.annotations.NullMarked;
