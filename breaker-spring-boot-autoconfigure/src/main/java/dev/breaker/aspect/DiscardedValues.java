package dev.breaker.aspect;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.util.ClassUtils;
import org.springframework.web.reactive.function.client.ClientResponse;

/**
 * Frees the values of one guarded method that the aspect discards and nobody else will
 * see (an attempt's value that is retried, or one whose caller gave up as it came), when
 * they are per-call responses: values whose type says that whoever receives one owns it
 * and must free it, so that a discarded one would otherwise hold its connection or memory
 * for ever. A RestClient or RestTemplate {@link ClientHttpResponse} is closed, a
 * WebClient {@link ClientResponse} has its body released (read and dropped without
 * waiting, as WebClient's own retries do), a Spring {@link DataBuffer} is released. Any
 * other value, an {@link AutoCloseable} too (a cached lease, a shared executor or
 * client), is left alone: the aspect cannot tell whether the method handed it over or
 * only lent it. The value delivered to the caller is never freed here.
 *
 * <p>
 * Freeing never reaches the caller: a close that throws is logged as a warning, the first
 * one and then at most one a minute for the method (each saying how many went unlogged
 * since), its message escaped and cut to {@value #MESSAGE} characters.
 */
final class DiscardedValues {

	private static final System.Logger LOG = System.getLogger(DiscardedValues.class.getName());

	/** Longest part of a failed close's message that is logged. */
	static final int MESSAGE = 200;

	private static final boolean DATA_BUFFERS = ClassUtils.isPresent("org.springframework.core.io.buffer.DataBuffer",
			DiscardedValues.class.getClassLoader());

	private static final boolean CLIENT_RESPONSES = ClassUtils.isPresent(
			"org.springframework.web.reactive.function.client.ClientResponse", DiscardedValues.class.getClassLoader());

	private static final boolean HTTP_RESPONSES = ClassUtils
		.isPresent("org.springframework.http.client.ClientHttpResponse", DiscardedValues.class.getClassLoader());

	private final String name;

	private final QuietWarnings warnings;

	DiscardedValues(String name, Breaker breaker) {
		this.name = name;
		this.warnings = new QuietWarnings(LOG, breaker);
	}

	/**
	 * Whether {@code value} is a per-call response this class frees: the only values the
	 * aspect keeps to free.
	 */
	static boolean owned(@Nullable Object value) {
		return value != null && ((DATA_BUFFERS && Buffers.is(value)) || (CLIENT_RESPONSES && Responses.is(value))
				|| (HTTP_RESPONSES && HttpResponses.is(value)));
	}

	/**
	 * Frees {@code value} if it is a per-call response ({@link #owned}); never throws.
	 */
	void free(@Nullable Object value) {
		if (!owned(value)) {
			return;
		}
		try {
			if (DATA_BUFFERS && Buffers.is(value)) {
				Buffers.release(value);
			}
			else if (CLIENT_RESPONSES && Responses.is(value)) {
				Responses.release(value, this);
			}
			else {
				HttpResponses.close(value);
			}
		}
		catch (VirtualMachineError ex) {
			throw ex;
		}
		catch (Throwable ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			failed(value, ex);
		}
	}

	/**
	 * Logs that freeing {@code value} failed, unless a warning was logged less than a
	 * minute ago; then only counts it.
	 */
	void failed(Object value, Throwable error) {
		if (this.warnings.due()) {
			this.warnings.log("breaker '" + BreakerNames.printable(this.name) + "' could not free a discarded "
					+ value.getClass().getName() + ": " + error.getClass().getName() + ": "
					+ bounded(error.getMessage()), null);
		}
	}

	/**
	 * {@code text} escaped and cut to {@value #MESSAGE} characters
	 * ({@link BreakerNames#printable(String, int)}).
	 */
	static String bounded(@Nullable String text) {
		return (text != null) ? BreakerNames.printable(text, MESSAGE) : "";
	}

	/** Spring's data buffers, loaded only when spring-core's are present. */
	private static final class Buffers {

		static boolean is(Object value) {
			return value instanceof DataBuffer;
		}

		static void release(Object value) {
			DataBufferUtils.release((DataBuffer) value);
		}

	}

	/** WebClient's responses, loaded only when WebFlux is present. */
	private static final class Responses {

		static boolean is(Object value) {
			return value instanceof ClientResponse;
		}

		static void release(Object value, DiscardedValues values) {
			ClientResponse response = (ClientResponse) value;
			response.releaseBody().subscribe(null, (error) -> values.failed(response, error));
		}

	}

	/**
	 * RestClient's and RestTemplate's responses, loaded only when spring-web is present.
	 */
	private static final class HttpResponses {

		static boolean is(Object value) {
			return value instanceof ClientHttpResponse;
		}

		/** Closes the response (which may read the rest of its body first). */
		static void close(Object value) {
			((ClientHttpResponse) value).close();
		}

	}

}
