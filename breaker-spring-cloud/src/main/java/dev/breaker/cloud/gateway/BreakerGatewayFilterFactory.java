package dev.breaker.cloud.gateway;

import java.util.concurrent.TimeoutException;

import dev.breaker.core.BreakerOpenException;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory;
import org.springframework.cloud.gateway.support.ServiceUnavailableException;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.server.ResponseStatusException;

/**
 * Spring Cloud Gateway's {@code CircuitBreaker} route filter on breaker. Without a
 * {@code fallbackUri}, a rejected call answers 503 Service Unavailable and a timed-out
 * one 504 Gateway Timeout.
 */
public class BreakerGatewayFilterFactory extends SpringCloudCircuitBreakerFilterFactory {

	/**
	 * Create the filter factory.
	 * @param factory breaker's reactive circuit breaker factory
	 * @param dispatcherHandler where a fallback URI is dispatched
	 */
	public BreakerGatewayFilterFactory(ReactiveCircuitBreakerFactory<?, ?> factory,
			ObjectProvider<DispatcherHandler> dispatcherHandler) {
		super(factory, dispatcherHandler);
	}

	@Override
	protected Mono<Void> handleErrorWithoutFallback(Throwable error, boolean resumeWithoutError) {
		if (error instanceof TimeoutException) {
			return Mono.error(new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, error.getMessage(), error));
		}
		if (error instanceof BreakerOpenException) {
			return Mono.error(new ServiceUnavailableException());
		}
		if (resumeWithoutError) {
			return Mono.empty();
		}
		return Mono.error(error);
	}

}
