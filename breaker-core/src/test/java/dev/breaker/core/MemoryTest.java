package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A breaker is small, and a registry stays within its bound whatever keys it is given. */
class MemoryTest {

    @Test
    void aBreakerWithTheDefaultWindowTakesAtMostFourKibibytes() {
        BreakerConfig config = BreakerConfig.defaults();
        for (int i = 0; i < 10_000; i++) {
            Breaker.of("warm-up", config);
        }
        Breaker[] keep = new Breaker[1];
        long bytes = Allocations.of(() -> keep[0] = Breaker.of("payments", config));
        System.out.println("bytes allocated constructing one breaker with the default window: " + bytes);
        assertThat(bytes).isLessThanOrEqualTo(4096);
        assertThat(keep[0].state()).isEqualTo(State.CLOSED);
    }

    @Test
    void aRegistryKeepsAtMostMaxEntriesChildrenAfterAMillionDistinctKeys() {
        int max = 1000;
        ManualTicker ticker = new ManualTicker();
        BreakerRegistry registry = BreakerRegistry.builder()
                .defaults(BreakerConfig.builder().ticker(ticker).build())
                .children("tenants", new BreakerRegistry.Children(max, Duration.ofMinutes(10), false)).build();
        AtomicLong removed = new AtomicLong();
        registry.onRemoved(b -> removed.incrementAndGet());
        for (int i = 0; i < 1_000_000; i++) {
            registry.breaker("tenants", "user-" + i);
        }
        assertThat(registry.children("tenants")).hasSize(max);
        assertThat(removed.get()).isEqualTo(1_000_000 - max);
        assertThat(registry.find("tenants:user-999999")).isPresent();
        assertThat(registry.find("tenants:user-0")).isEmpty();
    }
}
