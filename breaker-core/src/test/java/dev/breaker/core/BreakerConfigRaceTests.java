package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Builders are not thread-safe, but a builder another thread changes while
 * {@link BreakerConfig.Builder#build()} runs must still never yield a config that
 * validation would refuse: what is validated is exactly what is built.
 */
class BreakerConfigRaceTests {

	private static final int BUILDS = Rounds.count(200_000);

	private static final Duration GOOD_WINDOW = Duration.ofSeconds(10);

	private static final Duration BAD_WINDOW = Duration.ofSeconds(-10);

	@Test
	void neverBuildsASettingThatAnotherThreadChangedAfterItWasValidated() {
		BreakerConfig.Builder shared = BreakerConfig.builder();
		AtomicLong flips = new AtomicLong();
		AtomicBoolean done = new AtomicBoolean();
		AtomicReference<String> escaped = new AtomicReference<>();
		AtomicLong built = new AtomicLong();
		Concurrently.run(2, (thread) -> {
			if (thread == 0) {
				try {
					for (int n = 0; n < BUILDS && escaped.get() == null; n++) {
						BreakerConfig config;
						try {
							config = shared.build();
						}
						catch (InvalidBreakerConfigException refused) {
							continue;
						}
						built.incrementAndGet();
						if (config.window().isNegative() || config.classifier() == null) {
							escaped.set(config + " with classifier " + config.classifier());
						}
					}
				}
				finally {
					done.set(true);
				}
			}
			else {
				// each write published by an ordered store, so no write can be merged
				// away
				while (!done.get()) {
					shared.window(BAD_WINDOW).classifier(null);
					flips.lazySet(flips.get() + 1);
					shared.window(GOOD_WINDOW).classifier(OutcomeClassifier.defaults());
					flips.lazySet(flips.get() + 1);
				}
			}
		});
		assertThat(built.get()).as("builds that passed validation").isPositive();
		assertThat(flips.get()).as("writes of the other thread").isPositive();
		assertThat(escaped.get()).as("a built config validation would refuse").isNull();
	}

}
