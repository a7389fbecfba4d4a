package dev.breaker.sample.checkout;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.sample.dependency.Dependencies;
import dev.breaker.sample.dependency.DependencyClients;
import dev.breaker.sample.dependency.DependencyProperties;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The app's side of the payments gateway: charges an order, or queues its payment when
 * the gateway fails.
 */
@Component
public class PaymentsClient {

	private final RestClient client;

	private final PaymentQueue queue;

	PaymentsClient(RestClient.Builder builder, Dependencies dependencies, DependencyProperties properties,
			PaymentQueue queue) {
		this.client = DependencyClients.restClient(builder, dependencies.payments(), properties.getPayments());
		this.queue = queue;
	}

	/** Charges the order at the gateway. */
	@CircuitGuarded(name = "payments", fallbackMethod = "queueForLater")
	public Payment charge(Order order) {
		Charge charge = this.client.post()
			.uri("/charges")
			.contentType(MediaType.APPLICATION_JSON)
			.body(new ChargeRequest(order.orderId(), order.amountCents()))
			.retrieve()
			.body(Charge.class);
		if (charge == null || charge.chargeId() == null) {
			throw new IllegalStateException("payments gateway answered without a charge id");
		}
		return Payment.paid(charge.chargeId());
	}

	/**
	 * The fallback: the order is accepted, its payment is queued and taken once the
	 * gateway is back.
	 */
	public Payment queueForLater(Order order, Throwable cause) {
		this.queue.add(order);
		return Payment.queued(cause.getClass().getSimpleName() + ": " + cause.getMessage());
	}

	record ChargeRequest(String orderId, long amountCents) {
	}

	record Charge(String chargeId, String status) {
	}

}
