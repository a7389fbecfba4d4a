package dev.breaker.core;

/**
 * Tells listeners of something, the one way every part of breaker does: each in turn, and
 * one that throws is logged and never stops the others or reaches the caller.
 *
 * <p>
 * A {@link VirtualMachineError} is the JVM's own trouble, not the listener's, and
 * propagates. Pass non-capturing lambdas (or constants) as the notice and the message,
 * and the event's parts as the two arguments.
 *
 * <p>
 * Not for the guarded call path: the one {@code notice.tell} call site serves every
 * listener in breaker, so the JIT sees it megamorphic and stops inlining through it; the
 * Spring layer's call observers, routed through here, cost 24 more bytes per guarded call
 * once the other listeners had run in the same JVM (TracedCallAllocationTests: 144
 * against 120 bytes). They keep their own loop.
 */
public final class Listeners {

	private Listeners() {
	}

	/**
	 * How one listener is told.
	 *
	 * @param <L> the listener type
	 * @param <A> the first part of the event
	 * @param <B> the second part of the event
	 */
	@FunctionalInterface
	public interface Notice<L, A, B> {

		void tell(L listener, A first, B second);

	}

	/**
	 * The log message for a listener that threw.
	 *
	 * @param <L> the listener type
	 * @param <A> the first part of the event
	 * @param <B> the second part of the event
	 */
	@FunctionalInterface
	public interface Message<L, A, B> {

		String of(L listener, A first, B second);

	}

	/**
	 * Tells each listener, in order.
	 * @param listeners the listeners; iterated once (a copy-on-write list is told its
	 * snapshot)
	 * @param notice how one is told
	 * @param first the first part of the event
	 * @param second the second part of the event
	 * @param log where a listener that throws is logged, as a warning
	 * @param message the warning
	 */
	public static <L, A, B> void tell(Iterable<? extends L> listeners, Notice<? super L, ? super A, ? super B> notice,
			A first, B second, System.Logger log, Message<? super L, ? super A, ? super B> message) {
		for (L listener : listeners) {
			tellOne(listener, notice, first, second, log, message);
		}
	}

	private static <L, A, B> void tellOne(L listener, Notice<? super L, ? super A, ? super B> notice, A first, B second,
			System.Logger log, Message<? super L, ? super A, ? super B> message) {
		try {
			notice.tell(listener, first, second);
		}
		catch (VirtualMachineError e) {
			throw e;
		}
		catch (Throwable e) {
			log.log(System.Logger.Level.WARNING, message.of(listener, first, second), e);
		}
	}

}
