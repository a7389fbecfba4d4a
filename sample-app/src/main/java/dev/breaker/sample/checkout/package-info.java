/** Checkout: takes orders and charges them through the payments gateway, queueing the payment when it fails. */
package dev.breaker.sample.checkout;
