package dev.breaker.sample.checkout;

/**
 * How an order was paid.
 *
 * @param status {@code PAID} (the gateway captured the charge) or {@code QUEUED} (the
 * order is accepted and its payment will be taken later)
 * @param chargeId the gateway's charge id, null when queued
 * @param reason why the payment was queued, null when paid
 */
public record Payment(String status, String chargeId, String reason) {

	public static final String PAID = "PAID";

	public static final String QUEUED = "QUEUED";

	static Payment paid(String chargeId) {
		return new Payment(PAID, chargeId, null);
	}

	static Payment queued(String reason) {
		return new Payment(QUEUED, null, reason);
	}

}
