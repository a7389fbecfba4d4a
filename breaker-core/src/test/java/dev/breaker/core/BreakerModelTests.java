package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.LongStream;

/**
 * Model-based test: random configs and random sequences of calls (some held open across
 * later steps, so probes stay in flight and permits outlive their state), ticker moves
 * and overrides, driven through the engine and through {@link ReferenceBreaker}, which
 * applies the documented rules after every call; they must agree after every step.
 * Seeded, so a failure names the seed and the steps that led to it and replays exactly.
 * (Written as a seeded JUnit test instead of jqwik: jqwik 1.10.1's engine prints a notice
 * that AI agents must not use it.)
 */
class BreakerModelTests {

	private static final int STEPS = 400;

	static LongStream seeds() {
		return LongStream.rangeClosed(1, 300);
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void agreesWithTheReferenceModelAfterEveryStep(long seed) {
		Random random = new Random(seed);
		ManualTicker ticker = new ManualTicker();
		BreakerConfig config = randomConfig(random, ticker);
		Breaker breaker = Breaker.of("model", config);
		ReferenceBreaker model = new ReferenceBreaker(config);
		List<Held> held = new ArrayList<>();
		List<String> steps = new ArrayList<>();
		for (int step = 0; step < STEPS; step++) {
			String op = step(random, ticker, breaker, model, held);
			steps.add(op);
			long now = ticker.nanos();
			String context = "seed " + seed + ", " + config + ", steps " + steps;
			assertThat(breaker.state()).as(context).isEqualTo(model.state(now));
			assertThat(breaker.snapshot().consecutiveFailures()).as(context).isEqualTo(model.consecutiveFailures());
		}
	}

	/** A permit still out, in both the engine and the model. */
	private record Held(Permit permit, ReferenceBreaker.Held model, long at) {
	}

	private static String step(Random random, ManualTicker ticker, Breaker breaker, ReferenceBreaker model,
			List<Held> held) {
		int dice = random.nextInt(100);
		long slow = breaker.config().slowCallDuration().toNanos() + 1;
		if (dice < 50) {
			Outcome outcome = randomOutcome(random);
			long elapsed = random.nextInt(5) == 0 ? slow : 0;
			Permit permit = breaker.acquire();
			ReferenceBreaker.Held granted = model.acquire(ticker.nanos());
			assertThat(permit.granted()).as("granted").isEqualTo(granted != null);
			if (permit.granted()) {
				breaker.release(permit, outcome, elapsed);
				model.release(granted, outcome, elapsed, ticker.nanos());
			}
			return outcome + (elapsed > 0 ? "(slow)" : "") + (granted != null ? "" : "(rejected)");
		}
		if (dice < 60) {
			if (held.size() >= 3) {
				return "hold(full)";
			}
			Permit permit = breaker.acquire();
			ReferenceBreaker.Held granted = model.acquire(ticker.nanos());
			assertThat(permit.granted()).as("granted").isEqualTo(granted != null);
			if (granted != null) {
				held.add(new Held(permit, granted, ticker.nanos()));
			}
			return "hold" + (granted != null ? "" : "(rejected)");
		}
		if (dice < 70) {
			if (held.isEmpty()) {
				return "release(none)";
			}
			Held h = held.remove(random.nextInt(held.size()));
			Outcome outcome = randomOutcome(random);
			long elapsed = ticker.nanos() - h.at();
			breaker.release(h.permit(), outcome, elapsed);
			model.release(h.model(), outcome, elapsed, ticker.nanos());
			return "release " + outcome;
		}
		if (dice < 90) {
			long[] moves = { 0, 1_000_000, 100_000_000, 999_000_000, 1_000_000_000, 5_000_000_000L, 30_000_000_000L };
			long move = moves[random.nextInt(moves.length)];
			ticker.advanceNanos(move);
			return "+" + move / 1_000_000 + "ms";
		}
		State to = new State[] { State.CLOSED, State.FORCED_OPEN, State.DISABLED, State.HALF_OPEN }[random.nextInt(4)];
		switch (to) {
			case CLOSED -> breaker.reset();
			case FORCED_OPEN -> breaker.forceOpen();
			case DISABLED -> breaker.disable();
			default -> breaker.halfOpen();
		}
		model.override(to, ticker.nanos());
		return "operator " + to;
	}

	private static Outcome randomOutcome(Random random) {
		return Outcome.values()[random.nextInt(100) < 50 ? random.nextInt(2) : random.nextInt(5)];
	}

	private static BreakerConfig randomConfig(Random random, ManualTicker ticker) {
		Duration bucket = random.nextBoolean() ? Duration.ofMillis(100) : Duration.ofSeconds(1);
		Duration openWait = Duration.ofSeconds(1 + random.nextInt(5));
		double multiplier = random.nextBoolean() ? 1 : 2;
		return BreakerConfig.builder()
			.ticker(ticker)
			.openWaitJitter(0)
			.bucket(bucket)
			.window(bucket.multipliedBy(1 + random.nextInt(10)))
			.consecutiveFailures(random.nextInt(6))
			.failureRateThreshold(new double[] { 0, 25, 50, 100 }[random.nextInt(4)])
			.slowCallRateThreshold(new double[] { 0, 0, 50, 100 }[random.nextInt(4)])
			.slowCallDuration(Duration.ofSeconds(1 + random.nextInt(2)))
			.minimumCalls(1 + random.nextInt(10))
			.timeoutWeight(new double[] { 0, 0.5, 1, 2 }[random.nextInt(4)])
			.openWait(openWait)
			.openWaitMultiplier(multiplier)
			.maxOpenWait(openWait.multipliedBy(1 + random.nextInt(4)))
			.halfOpenMaxProbes(1 + random.nextInt(4))
			.halfOpenSuccessesToClose(1 + random.nextInt(3))
			.halfOpenFailuresToReopen(1 + random.nextInt(3))
			.halfOpenMaxWait(Duration.ofSeconds(2 + random.nextInt(60)))
			.build();
	}

}
