package dev.breaker.sample.checkout;

import java.util.List;

/**
 * The body of {@code POST /checkout}.
 *
 * @param userId who orders
 * @param items what they order
 */
public record CheckoutRequest(String userId, List<Line> items) {

	/**
	 * One line of an order.
	 *
	 * @param sku the product
	 * @param quantity how many
	 */
	public record Line(String sku, int quantity) {
	}

}
