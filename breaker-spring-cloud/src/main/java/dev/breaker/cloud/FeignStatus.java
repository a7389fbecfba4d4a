package dev.breaker.cloud;

import dev.breaker.autoconfigure.StatusExceptionClassifier;
import feign.FeignException;

/**
 * Reads the HTTP status of Feign's {@code FeignException}, so that the default classifier
 * judges a Feign client's 404 as the per-host breakers judge one: the caller's fault, not
 * an outage.
 */
public final class FeignStatus implements StatusExceptionClassifier.StatusReader {

	/**
	 * The status Feign received ({@code FeignException$NotFound}: 404), or 0 for any
	 * other exception and for a Feign exception without an answer (Feign's -1: an I/O
	 * error).
	 */
	@Override
	public int status(Throwable error) {
		return (error instanceof FeignException feign) ? Math.max(feign.status(), 0) : 0;
	}

	/**
	 * {@code FeignException} and its subclasses: a {@code record-exceptions} entry naming
	 * one ({@code feign.FeignException$NotFound}) counts those answers as failures.
	 */
	@Override
	public boolean reads(Class<?> type) {
		return FeignException.class.isAssignableFrom(type);
	}

}
