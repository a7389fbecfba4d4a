package dev.breaker.sample.catalog;

/**
 * A product of the shop.
 *
 * @param sku its stock-keeping unit, e.g. {@code sku-7}
 * @param name what the customer sees
 * @param priceCents its price in cents
 */
public record Product(String sku, String name, long priceCents) {
}
