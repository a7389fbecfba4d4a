package dev.breaker.http;

import java.io.IOException;
import java.io.InputStream;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A {@link ClientHttpResponse} that hands every call to another one; subclasses override
 * what they watch (Spring's own decorator is not public).
 */
abstract class ResponseDecorator implements ClientHttpResponse {

	private final ClientHttpResponse delegate;

	ResponseDecorator(ClientHttpResponse delegate) {
		this.delegate = delegate;
	}

	@Override
	public HttpStatusCode getStatusCode() throws IOException {
		return this.delegate.getStatusCode();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.delegate.getHeaders();
	}

	@Override
	public String getStatusText() throws IOException {
		return this.delegate.getStatusText();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

	@Override
	public InputStream getBody() throws IOException {
		return this.delegate.getBody();
	}

}
