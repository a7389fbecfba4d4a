package dev.breaker.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** What a breaker tells about its transitions: the listeners, and the last few transitions, most recent last. */
final class TransitionLog {

    static final int CAPACITY = 20;
    private static final System.Logger LOG = System.getLogger(Breaker.class.getName());

    private final List<Consumer<Transition>> listeners = new CopyOnWriteArrayList<>();
    private final Transition[] ring = new Transition[CAPACITY];
    private long added;

    void listen(Consumer<Transition> listener) {
        listeners.add(listener);
    }

    /** Records a published transition and runs the listeners on this thread; a throwing listener is logged. */
    void publish(Transition transition) {
        synchronized (ring) {
            ring[(int) (added++ % CAPACITY)] = transition;
        }
        for (Consumer<Transition> listener : listeners) {
            try {
                listener.accept(transition);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                LOG.log(System.Logger.Level.WARNING, "a transition listener of breaker '" + BreakerNames.printable(transition.breaker())
                        + "' threw on " + transition + "; the breaker carries on", e);
            }
        }
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
