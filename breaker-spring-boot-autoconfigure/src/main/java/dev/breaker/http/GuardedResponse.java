package dev.breaker.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import dev.breaker.core.Outcome;
import dev.breaker.core.ReleaseOnce;

import org.springframework.http.client.ClientHttpResponse;

/**
 * A response whose close releases the breaker's permit, with the outcome judged from the
 * status unless reading the body failed.
 */
final class GuardedResponse extends ResponseDecorator {

	private final HttpRetryLoop.Attempts attempts;

	private final ReleaseOnce attempt;

	private volatile Outcome outcome;

	private InputStream body;

	GuardedResponse(ClientHttpResponse response, HttpRetryLoop.Attempts attempts, ReleaseOnce attempt,
			Outcome outcome) {
		super(response);
		this.attempts = attempts;
		this.attempt = attempt;
		this.outcome = outcome;
	}

	@Override
	public InputStream getBody() throws IOException {
		if (this.body == null) {
			this.body = new WatchedBody(super.getBody());
		}
		return this.body;
	}

	@Override
	public void close() {
		try {
			super.close();
		}
		finally {
			this.attempt.release(this.outcome);
		}
	}

	private void bodyFailed(IOException ex) {
		// A timeout or reset half way through the body is the host's fault, any status.
		Outcome failed = this.attempts.judge(ex);
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
