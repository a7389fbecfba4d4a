package dev.breaker.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What a breaker tells about its transitions: the listeners, and the last few
 * transitions, most recent last.
 */
final class TransitionLog {

	/*
	 * Listeners run on the thread that caused the transition. A transition caused while
	 * this thread is already delivering one (a listener that resets the breaker, or moves
	 * another breaker) is queued on the thread and delivered after the running delivery
	 * returns, iteratively: the stack never grows with re-entrant listeners, and each
	 * listener sees transitions in order. `DELIVERY` is only touched on a transition,
	 * never on the call path.
	 *
	 * A listener that throws anything but a VirtualMachineError is logged and the others
	 * still run; nothing a listener throws reaches the caller (a VirtualMachineError is
	 * the JVM's own trouble and propagates, after which the queue of this thread is
	 * dropped).
	 */

	static final int CAPACITY = 20;

	private static final System.Logger LOG = System.getLogger(Breaker.class.getName());

	private static final ThreadLocal<Delivery> DELIVERY = ThreadLocal.withInitial(Delivery::new);

	private final List<Consumer<Transition>> listeners = new CopyOnWriteArrayList<>();

	private final Transition[] ring = new Transition[CAPACITY];

	private long added;

	private record Pending(TransitionLog log, Transition transition, BreakerState entered) {
	}

	private static final class Delivery {

		final ArrayDeque<Pending> queue = new ArrayDeque<>();

		boolean running;

		BreakerState entered;

		/**
		 * This delivery, while it runs: the mark of every state entered and told in it
		 * ({@link BreakerState#enteredIn}).
		 */
		Object run;

	}

	void listen(Consumer<Transition> listener) {
		listeners.add(listener);
	}

	boolean unlisten(Consumer<Transition> listener) {
		return listeners.remove(listener);
	}

	/**
	 * Whether this thread is delivering the transition into {@code state} right now (from
	 * inside its listeners).
	 */
	static boolean delivering(BreakerState state) {
		return DELIVERY.get().entered == state;
	}

	/**
	 * Whether this thread is delivering a transition right now, and {@code state} was
	 * entered and told in this same delivery (by the transition that began it or by one a
	 * listener caused).
	 */
	static boolean enteredInThisDelivery(BreakerState state) {
		Delivery d = DELIVERY.get();
		return d.running && state.enteredIn == d.run;
	}

	/** Whether this thread is delivering a transition right now (inside a listener). */
	static boolean delivering() {
		return DELIVERY.get().running;
	}

	/**
	 * Records a published transition and runs the listeners on this thread (after the
	 * running delivery, if any).
	 */
	void publish(Transition transition, BreakerState entered) {
		synchronized (ring) {
			ring[(int) (added++ % CAPACITY)] = transition;
		}
		Delivery d = DELIVERY.get();
		if (!d.running) {
			d.run = new Object();
		}
		entered.enteredIn = d.run;
		d.queue.add(new Pending(this, transition, entered));
		if (d.running) {
			return;
		}
		d.running = true;
		try {
			for (Pending p = d.queue.poll(); p != null; p = d.queue.poll()) {
				d.entered = p.entered();
				p.log().deliver(p.transition());
			}
		}
		finally {
			d.running = false;
			d.entered = null;
			d.run = null;
			d.queue.clear();
		}
	}

	private void deliver(Transition transition) {
		Listeners.tell(listeners, (listener, event, unused) -> listener.accept(event), transition, null, LOG,
				(listener, t, unused) -> "a transition listener of breaker '" + BreakerNames.printable(t.breaker())
						+ "' threw on " + t + "; the breaker carries on");
	}

	List<Transition> recent() {
		synchronized (ring) {
			int size = (int) Math.min(added, CAPACITY);
			List<Transition> out = new ArrayList<>(size);
			for (long i = added - size; i < added; i++) {
				out.add(ring[(int) (i % CAPACITY)]);
			}
			return List.copyOf(out);
		}
	}

}
