package dev.breaker.sample.checkout;

import java.util.Map;
import java.util.UUID;

import dev.breaker.sample.catalog.Catalog;
import dev.breaker.sample.catalog.Product;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClientException;
import org.springframework.web.server.ResponseStatusException;

/** {@code POST /checkout}: prices the order from the catalog and charges it. */
@RestController
class CheckoutController {

	private final Catalog catalog;

	private final PaymentsClient payments;

	CheckoutController(Catalog catalog, PaymentsClient payments) {
		this.catalog = catalog;
		this.payments = payments;
	}

	@PostMapping("/checkout")
	CheckoutResponse checkout(@RequestBody CheckoutRequest request) {
		Order order = accept(request);
		return new CheckoutResponse(order.orderId(), order.amountCents(), this.payments.charge(order));
	}

	private Order accept(CheckoutRequest request) {
		if (request.userId() == null || request.userId().isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "userId is required");
		}
		if (request.items() == null || request.items().isEmpty()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "an order needs at least one item");
		}
		long amount = 0;
		for (CheckoutRequest.Line line : request.items()) {
			Product product = this.catalog.find(line.sku())
				.orElseThrow(() -> new ResponseStatusException(HttpStatus.BAD_REQUEST, "no product " + line.sku()));
			if (line.quantity() < 1) {
				throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
						"quantity of " + line.sku() + " must be >= 1");
			}
			amount += product.priceCents() * line.quantity();
		}
		return new Order(UUID.randomUUID().toString(), request.userId(), request.items(), amount);
	}

	/** Without a breaker (breaker.enabled=false) a failed charge reaches the customer. */
	@ExceptionHandler(RestClientException.class)
	ResponseEntity<Map<String, String>> gatewayFailed(RestClientException ex) {
		return ResponseEntity.status(HttpStatus.BAD_GATEWAY)
			.body(Map.of("error", "payments gateway failed: " + ex.getMessage()));
	}

}
