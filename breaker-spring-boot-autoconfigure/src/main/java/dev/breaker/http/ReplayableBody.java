package dev.breaker.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpRequestDecorator;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.client.ClientRequest;

/**
 * The body of a WebClient request that may be retried: the first attempt streams it as it
 * would anyway, keeping a copy of what it wrote; a retry writes the copy, so a body that
 * can be read only once (a one-shot publisher) is sent whole on every attempt. Only
 * requests that may be retried get one, and a body larger than {@link #MAX_BYTES} keeps
 * no copy: its request is not retried.
 */
final class ReplayableBody implements BodyInserter<Object, ClientHttpRequest> {

	/** The largest body kept for a retry: 1 MiB. */
	static final int MAX_BYTES = 1 << 20;

	private final BodyInserter<?, ? super ClientHttpRequest> original;

	/**
	 * The whole body as the first attempt wrote it, once it has; null before (or when too
	 * large).
	 */
	private volatile byte[] copy;

	/**
	 * Whether an attempt began writing the original body (so it cannot be written again).
	 */
	private volatile boolean started;

	/** The body of {@code request}, to be kept for replay. */
	ReplayableBody(ClientRequest request) {
		this.original = request.body();
	}

	/** {@code request} with this body instead of its own. */
	ClientRequest applyTo(ClientRequest request) {
		return ClientRequest.from(request).body(this).build();
	}

	/**
	 * Whether another attempt can send the whole body: none was written yet, or all of it
	 * was kept.
	 */
	boolean replayable() {
		return !this.started || this.copy != null;
	}

	@Override
	@SuppressWarnings("unchecked")
	public Mono<Void> insert(ClientHttpRequest request, Context context) {
		byte[] kept = this.copy;
		if (kept != null) {
			return (kept.length == 0) ? request.setComplete()
					: request.writeWith(Mono.fromSupplier(() -> request.bufferFactory().wrap(kept)));
		}
		return ((BodyInserter<Object, ClientHttpRequest>) this.original).insert(new Keeping(request), context);
	}

	/** Writes the original body through, keeping a copy of it up to MAX_BYTES. */
	private final class Keeping extends ClientHttpRequestDecorator {

		private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

		private boolean tooLarge;

		Keeping(ClientHttpRequest request) {
			super(request);
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			ReplayableBody.this.started = true;
			return super.writeWith(Flux.from(body).doOnNext(this::keep).doOnComplete(this::kept));
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			// a stream flushed part by part: never replayed
			ReplayableBody.this.started = true;
			return super.writeAndFlushWith(body);
		}

		@Override
		public Mono<Void> setComplete() {
			if (!ReplayableBody.this.started) {
				ReplayableBody.this.copy = new byte[0];
			}
			return super.setComplete();
		}

		private void keep(DataBuffer buffer) {
			int n = buffer.readableByteCount();
			if (this.tooLarge || this.kept.size() + n > MAX_BYTES) {
				this.tooLarge = true;
				return;
			}
			byte[] bytes = new byte[n];
			buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(bytes), 0, n);
			this.kept.write(bytes, 0, n);
		}

		private void kept() {
			if (!this.tooLarge) {
				ReplayableBody.this.copy = this.kept.toByteArray();
			}
		}

	}

}
