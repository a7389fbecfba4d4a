package dev.breaker.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A response whose close releases the breaker's permit, with the outcome judged from the
 * status unless reading the body failed.
 */
final class GuardedResponse implements ClientHttpResponse {

	private final ClientHttpResponse response;

	private final HostBreakers breakers;

	private final Breaker breaker;

	private final Permit permit;

	private final long start;

	private final AtomicBoolean released = new AtomicBoolean();

	private volatile Outcome outcome;

	private InputStream body;

	GuardedResponse(ClientHttpResponse response, HostBreakers breakers, Breaker breaker, Permit permit, long start,
			Outcome outcome) {
		this.response = response;
		this.breakers = breakers;
		this.breaker = breaker;
		this.permit = permit;
		this.start = start;
		this.outcome = outcome;
	}

	@Override
	public HttpStatusCode getStatusCode() throws IOException {
		return this.response.getStatusCode();
	}

	@Override
	public String getStatusText() throws IOException {
		return this.response.getStatusText();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.response.getHeaders();
	}

	@Override
	public InputStream getBody() throws IOException {
		if (this.body == null) {
			this.body = new WatchedBody(this.response.getBody());
		}
		return this.body;
	}

	@Override
	public void close() {
		try {
			this.response.close();
		}
		finally {
			release();
		}
	}

	private void release() {
		if (this.released.compareAndSet(false, true)) {
			this.breaker.release(this.permit, this.outcome, this.breaker.nanos() - this.start);
		}
	}

	private void bodyFailed(IOException ex) {
		// A timeout or reset half way through the body is the host's fault, whatever the
		// status said.
		Outcome failed = this.breakers.classify(this.breaker, ex);
		if (failed != Outcome.IGNORED) {
			this.outcome = failed;
		}
	}

	private final class WatchedBody extends FilterInputStream {

		WatchedBody(InputStream in) {
			super(in);
		}

		@Override
		public int read() throws IOException {
			try {
				return super.read();
			}
			catch (IOException ex) {
				bodyFailed(ex);
				throw ex;
			}
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			try {
				return this.in.read(b, off, len);
			}
			catch (IOException ex) {
				bodyFailed(ex);
				throw ex;
			}
		}

		@Override
		public long skip(long n) throws IOException {
			try {
				return super.skip(n);
			}
			catch (IOException ex) {
				bodyFailed(ex);
				throw ex;
			}
		}

		@Override
		public byte[] readAllBytes() throws IOException {
			try {
				return this.in.readAllBytes();
			}
			catch (IOException ex) {
				bodyFailed(ex);
				throw ex;
			}
		}

	}

}
