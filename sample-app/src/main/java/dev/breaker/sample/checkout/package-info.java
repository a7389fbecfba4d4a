/**
 * Checkout: takes orders and charges them through the payments gateway, queueing the
 * payment when it fails.
 */
@NullMarked
package dev.breaker.sample.checkout;

import org.jspecify.annotations.NullMarked;
