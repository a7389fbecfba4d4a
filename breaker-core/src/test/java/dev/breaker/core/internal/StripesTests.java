package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Threads are spread over the stripes, so two threads rarely write the same counter. */
class StripesTests {

	@Test
	void threadsAreSpreadOverEveryStripe() throws InterruptedException {
		Set<Integer> seen = ConcurrentHashMap.newKeySet();
		for (int i = 0; i < 64; i++) {
			Thread t = new Thread(() -> seen.add(Stripes.current()));
			t.start();
			t.join();
		}
		assertThat(seen).hasSize(Stripes.COUNT).allSatisfy(s -> assertThat(s).isBetween(0, Stripes.COUNT - 1));
	}

}
