package dev.breaker.sample.checkout;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.LongAdder;

import org.springframework.stereotype.Component;

/**
 * Orders accepted while the payments gateway could not be reached, waiting for their
 * payment.
 */
@Component
public class PaymentQueue {

	/**
	 * How many payments the queue holds; past that, checkouts are refused rather than
	 * lost.
	 */
	static final int CAPACITY = 100_000;

	/**
	 * A payment waiting to be taken.
	 *
	 * @param order the accepted order
	 * @param queuedAt when it was queued
	 */
	public record QueuedPayment(Order order, Instant queuedAt) {
	}

	private final BlockingQueue<QueuedPayment> queued = new ArrayBlockingQueue<>(CAPACITY);

	private final Clock clock = Clock.systemUTC();

	private final LongAdder settled = new LongAdder();

	/**
	 * Queues the payment of an order.
	 * @throws IllegalStateException when the queue is full
	 */
	public void add(Order order) {
		if (!this.queued.offer(new QueuedPayment(order, this.clock.instant()))) {
			throw new IllegalStateException("payment queue is full (" + CAPACITY + " orders)");
		}
	}

	public int size() {
		return this.queued.size();
	}

	/** Counts a queued payment that was taken later. */
	void settled() {
		this.settled.increment();
	}

	/** How many queued payments were taken later. */
	public long settledCount() {
		return this.settled.sum();
	}

	/** The oldest queued payment, removed from the queue, or null when there is none. */
	public QueuedPayment poll() {
		return this.queued.poll();
	}

}
