/** The last five minutes of each breaker, one summary per second, for the live page and operators. */
package dev.breaker.actuate.history;
