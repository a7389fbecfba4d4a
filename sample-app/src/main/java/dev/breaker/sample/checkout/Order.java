package dev.breaker.sample.checkout;

import java.util.List;

/**
 * An accepted order, ready to be charged.
 *
 * @param orderId its id
 * @param userId who ordered
 * @param items what was ordered
 * @param amountCents what it costs
 */
public record Order(String orderId, String userId, List<CheckoutRequest.Line> items, long amountCents) {
}
