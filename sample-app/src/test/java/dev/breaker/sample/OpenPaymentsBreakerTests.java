package dev.breaker.sample;

import dev.breaker.core.State;
import dev.breaker.sample.checkout.PaymentQueue;
import dev.breaker.sample.checkout.QueuedPayments;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What checkout does while the payments breaker is open. Its open wait is ten minutes
 * here, so that it is still open when the test looks, however slow the machine (with the
 * test profile's 500ms a busy machine can let the breaker go half-open and send a probe
 * between the trip and the next checkout).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "breaker.instances.payments.open-wait=10m", "breaker.instances.payments.max-open-wait=10m" })
@ActiveProfiles("test")
class OpenPaymentsBreakerTests extends RunningCheckout {

	@Autowired
	private PaymentQueue paymentQueue;

	@Autowired
	private QueuedPayments queuedPayments;

	@Test
	void wedgedGatewayTripsThePaymentsBreakerAndCheckoutsAreQueued() {
		this.client.chaos("payments", "wedged");
		int queuedBefore = this.paymentQueue.size();
		for (int i = 0; i < 3; i++) {
			assertThat(this.client.checkout().path("payment").path("status").asString()).isEqualTo("QUEUED");
		}
		assertThat(this.registry.breaker("payments").state()).isEqualTo(State.OPEN);
		assertThat(this.registry.breaker("payments").snapshot().transitions()).last()
			.satisfies((transition) -> assertThat(transition.reason()).contains("3"));

		long reachedGateway = this.dependencies.payments().counts().wedged();
		JsonNode rejected = this.client.checkout();
		assertThat(this.dependencies.payments().counts().wedged()).as("an open breaker does not call the gateway")
			.isEqualTo(reachedGateway);
		assertThat(rejected.path("payment").path("status").asString()).isEqualTo("QUEUED");
		assertThat(rejected.path("payment").path("reason").asString()).contains("OPEN");
		assertThat(this.paymentQueue.size()).isEqualTo(queuedBefore + 4);
	}

	@Test
	void queuedPaymentsAreTakenOnceTheBreakerIsClosedAgain() {
		this.client.chaos("payments", "down");
		for (int i = 0; i < 3; i++) {
			this.client.checkout();
		}
		assertThat(this.paymentQueue.size()).isGreaterThanOrEqualTo(3);
		assertThat(this.queuedPayments.retryQueued()).as("nothing is taken while the breaker is open").isZero();
		this.client.chaos("payments", "healthy");
		this.registry.breaker("payments").reset();
		long takenBefore = this.paymentQueue.settledCount();
		while (this.paymentQueue.size() > 0) {
			assertThat(this.queuedPayments.retryQueued()).isPositive();
		}
		assertThat(this.paymentQueue.settledCount()).isGreaterThanOrEqualTo(takenBefore + 3);
	}

}
