package dev.breaker.sample.checkout;

import java.util.Map;

import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.sample.checkout.PaymentQueue.QueuedPayment;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Takes the queued payments once the gateway is back: a small batch at a time, and only
 * while the payments breaker is closed, so that the backlog does not knock a recovering
 * gateway over again.
 */
@Component
@RestController
public class QueuedPayments {

	/** Payments taken per round, at most. */
	static final int BATCH = 20;

	private final PaymentQueue queue;

	private final PaymentsClient payments;

	private final ObjectProvider<BreakerRegistry> registry;

	QueuedPayments(PaymentQueue queue, PaymentsClient payments, ObjectProvider<BreakerRegistry> registry) {
		this.queue = queue;
		this.payments = payments;
		this.registry = registry;
	}

	/**
	 * One round: charges up to {@value #BATCH} queued payments while the payments breaker
	 * is closed. A charge that fails goes back to the queue (the guarded call's fallback)
	 * and ends the round.
	 * @return how many payments were taken
	 */
	@Scheduled(fixedDelayString = "${sample.payments.retry-queued-every:1s}",
			initialDelayString = "${sample.payments.retry-queued-every:1s}")
	public int retryQueued() {
		int taken = 0;
		while (taken < BATCH && gatewayLooksHealthy()) {
			QueuedPayment queued = this.queue.poll();
			if (queued == null) {
				break;
			}
			if (!Payment.PAID.equals(this.payments.charge(queued.order()).status())) {
				break;
			}
			this.queue.settled();
			taken++;
		}
		return taken;
	}

	private boolean gatewayLooksHealthy() {
		BreakerRegistry breakers = this.registry.getIfAvailable();
		// Without breakers nothing is queued; with them, "back" means closed.
		return breakers != null && breakers.breaker("payments").state() == State.CLOSED;
	}

	/**
	 * {@code GET /payments/queue}: how many payments wait, and how many were taken later.
	 */
	@GetMapping("/payments/queue")
	Map<String, Long> status() {
		return Map.of("queued", (long) this.queue.size(), "takenLater", this.queue.settledCount());
	}

}
