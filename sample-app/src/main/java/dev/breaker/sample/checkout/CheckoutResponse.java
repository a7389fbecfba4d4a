package dev.breaker.sample.checkout;

/**
 * The answer to {@code POST /checkout}.
 *
 * @param orderId the order's id
 * @param amountCents what it costs
 * @param payment how it was paid
 */
public record CheckoutResponse(String orderId, long amountCents, Payment payment) {
}
