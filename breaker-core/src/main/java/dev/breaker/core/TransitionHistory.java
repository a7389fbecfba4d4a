package dev.breaker.core;

import java.util.ArrayList;
import java.util.List;

/** The last few transitions of a breaker, most recent last. */
final class TransitionHistory {

    static final int CAPACITY = 20;

    private final Transition[] ring = new Transition[CAPACITY];
    private long added;

    synchronized void add(Transition t) {
        ring[(int) (added++ % CAPACITY)] = t;
    }

    synchronized List<Transition> list() {
        int size = (int) Math.min(added, CAPACITY);
        List<Transition> out = new ArrayList<>(size);
        for (long i = added - size; i < added; i++) {
            out.add(ring[(int) (i % CAPACITY)]);
        }
        return List.copyOf(out);
    }
}
