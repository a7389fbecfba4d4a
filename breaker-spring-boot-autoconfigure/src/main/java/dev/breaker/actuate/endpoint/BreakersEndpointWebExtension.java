package dev.breaker.actuate.endpoint;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The web form of the breakers endpoint's operations on one breaker: an unknown breaker
 * is a 404 with a JSON error (the same for GET, POST and DELETE) and a bad state a 400
 * that lists the allowed values, never a 500.
 */
@EndpointWebExtension(endpoint = BreakersEndpoint.class)
public class BreakersEndpointWebExtension {

	private final BreakersEndpoint delegate;

	public BreakersEndpointWebExtension(BreakersEndpoint delegate) {
		this.delegate = delegate;
	}

	/**
	 * One breaker's full snapshot.
	 * @param name the breaker's full name
	 * @return 200 with the snapshot, 404 for an unknown breaker
	 */
	@ReadOperation
	public WebEndpointResponse<Object> breaker(@Selector String name) {
		return this.delegate.find(name).map(BreakersEndpointWebExtension::ok).orElseGet(() -> notFound(name));
	}

	/**
	 * Puts a breaker in the state an operator asked for.
	 * @param name the breaker's full name
	 * @param state one of {@link OperatorOverride#ALLOWED}
	 * @param scope one of {@link OverrideScope#ALLOWED}, {@code fleet} when missing
	 * @return 200 with the new snapshot, 400 for a bad state or scope, 404 for an unknown
	 * breaker
	 */
	@WriteOperation
	public WebEndpointResponse<Object> override(@Selector String name, @Nullable String state, @Nullable String scope) {
		OperatorOverride override = OperatorOverride.parse(state);
		if (override == null) {
			return badRequest(BreakersEndpoint.invalidStateMessage(state), OperatorOverride.ALLOWED);
		}
		OverrideScope reach = OverrideScope.parse(scope);
		if (reach == null) {
			return badRequest(BreakersEndpoint.invalidScopeMessage(scope), OverrideScope.ALLOWED);
		}
		return this.delegate.override(name, override, reach)
			.map(BreakersEndpointWebExtension::ok)
			.orElseGet(() -> notFound(name));
	}

	/**
	 * Resets a breaker.
	 * @param name the breaker's full name
	 * @return 200 with the new snapshot, 404 for an unknown breaker
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> reset(@Selector String name) {
		return this.delegate.override(name, OperatorOverride.CLOSED, OverrideScope.FLEET)
			.map(BreakersEndpointWebExtension::ok)
			.orElseGet(() -> notFound(name));
	}

	private static WebEndpointResponse<Object> ok(SnapshotDescriptor snapshot) {
		return new WebEndpointResponse<>(snapshot);
	}

	private static WebEndpointResponse<Object> badRequest(String message, List<String> allowed) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("error", message);
		body.put("allowed", allowed);
		return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_BAD_REQUEST);
	}

	private static WebEndpointResponse<Object> notFound(String name) {
		return new WebEndpointResponse<>(Map.of("error", BreakersEndpoint.notFoundMessage(name)),
				WebEndpointResponse.STATUS_NOT_FOUND);
	}

}
