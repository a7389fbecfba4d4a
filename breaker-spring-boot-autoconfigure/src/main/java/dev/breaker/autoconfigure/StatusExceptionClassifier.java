package dev.breaker.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.breaker.core.CauseChain;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.http.HttpClassifier;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * The default classifier: an exception that reports an HTTP error answer is judged by its
 * status, as the per-host breakers judge that answer, and anything else as
 * {@link OutcomeClassifier#defaults()}.
 *
 * <p>
 * So a {@code @CircuitGuarded} method (or a Spring Cloud circuit breaker) around an HTTP
 * client agrees with the host's breaker: a 4xx (Spring's
 * {@code HttpClientErrorException}, {@code WebClientResponseException.NotFound}, ...) is
 * the caller's fault, IGNORED; a 429 is THROTTLED; a 5xx is a FAILURE. A 503 is a FAILURE
 * whatever its {@code Retry-After}: only a host's breaker honours that hint. The
 * exception and its causes are searched, the exception first. Statuses below 400 say
 * nothing here: such an exception is judged as any other. A breaker's
 * {@code record-exceptions} entry naming a status exception type
 * ({@code HttpClientErrorException.NotFound}) counts those answers as failures
 * ({@link #reads}).
 */
public final class StatusExceptionClassifier implements OutcomeClassifier {

	private static final String REST_CLIENT_EXCEPTION = "org.springframework.web.client.RestClientResponseException";

	private static final String WEB_CLIENT_EXCEPTION = "org.springframework.web.reactive.function.client.WebClientResponseException";

	private final StatusReader[] readers;

	/** Kept in a field: the cause chain is searched with it on every failed call. */
	private final Function<Throwable, @Nullable Outcome> answered = this::answered;

	private StatusExceptionClassifier(List<StatusReader> readers) {
		this.readers = readers.toArray(new StatusReader[0]);
	}

	/**
	 * The classifier that reads the statuses of Spring's HTTP clients' exceptions (those
	 * on the class path), then those {@code more} readers read.
	 * @param classLoader where Spring's client exceptions are looked for
	 * @param more readers of other libraries' exceptions (Feign's, say), in order
	 * @return {@link OutcomeClassifier#defaults()} when there is no reader at all
	 */
	public static OutcomeClassifier of(@Nullable ClassLoader classLoader, List<? extends StatusReader> more) {
		List<StatusReader> readers = new ArrayList<>();
		if (ClassUtils.isPresent(REST_CLIENT_EXCEPTION, classLoader)) {
			readers.add(new RestClientStatus());
		}
		if (ClassUtils.isPresent(WEB_CLIENT_EXCEPTION, classLoader)) {
			readers.add(new WebClientStatus());
		}
		readers.addAll(more);
		return readers.isEmpty() ? OutcomeClassifier.defaults() : new StatusExceptionClassifier(readers);
	}

	@Override
	public Outcome classify(@Nullable Object result, @Nullable Throwable error) {
		if (error != null) {
			Outcome outcome = CauseChain.first(error, this.answered);
			if (outcome != null) {
				return outcome;
			}
		}
		return OutcomeClassifier.defaults().classify(result, error);
	}

	private @Nullable Outcome answered(Throwable error) {
		for (StatusReader reader : this.readers) {
			int status = reader.status(error);
			if (status >= 400) {
				return HttpClassifier.defaults().classify(status, false);
			}
		}
		return null;
	}

	/**
	 * Whether exceptions of this type report an HTTP answer a reader reads: a
	 * {@code record-exceptions} entry naming such a type is a choice about those answers,
	 * which then count as failures whatever their status.
	 * @param type an exception class
	 * @return whether some reader {@linkplain StatusReader#reads reads} it
	 */
	public boolean reads(Class<?> type) {
		for (StatusReader reader : this.readers) {
			if (reader.reads(type)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return "StatusExceptionClassifier[" + this.readers.length + " readers]";
	}

	/**
	 * Reads the HTTP status an HTTP client library's exception reports; a bean of this
	 * type adds a library to the default classifier.
	 */
	@FunctionalInterface
	public interface StatusReader {

		/**
		 * The status of the answer this exception itself reports (its causes are asked
		 * separately).
		 * @param error an exception a call ended with
		 * @return the HTTP status, or 0 (any value below 400) when it reports no error
		 * answer
		 */
		int status(Throwable error);

		/**
		 * Whether this reader reads the status of the exceptions of this type (its own
		 * exception type or a subclass of it): a {@code record-exceptions} entry naming
		 * such a type counts their answers as failures, a 4xx too, while a broader entry
		 * ({@code java.lang.RuntimeException}) leaves them judged by their status.
		 * @param type an exception class named in {@code record-exceptions}
		 * @return {@code false} unless overridden
		 */
		default boolean reads(Class<?> type) {
			return false;
		}

	}

	/** Loaded only when spring-web is on the class path. */
	private static final class RestClientStatus implements StatusReader {

		@Override
		public int status(Throwable error) {
			return (error instanceof RestClientResponseException answer) ? answer.getStatusCode().value() : 0;
		}

		@Override
		public boolean reads(Class<?> type) {
			return RestClientResponseException.class.isAssignableFrom(type);
		}

	}

	/** Loaded only when spring-webflux is on the class path. */
	private static final class WebClientStatus implements StatusReader {

		@Override
		public int status(Throwable error) {
			return (error instanceof WebClientResponseException answer) ? answer.getStatusCode().value() : 0;
		}

		@Override
		public boolean reads(Class<?> type) {
			return WebClientResponseException.class.isAssignableFrom(type);
		}

	}

}
