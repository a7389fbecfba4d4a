package dev.breaker.core.internal;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: concurrent records and reads of the hourly peak are linearizable, so no value
 * is lost to a racing record of a smaller one or of an older step. Steps 0, 1, 12 and 13
 * put two steps on each of two slots, so records of a step race records of the step that
 * reuses its slot.
 */
@Tag("stress")
@Param(name = "step", gen = IntGen.class, conf = "0:13")
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public class HourlyPeakLincheckTests {

	private final HourlyPeak peak = new HourlyPeak();

	private static long at(int step) {
		int[] steps = { 0, 1, 12, 13 };
		return steps[step % 4] * HourlyPeak.STEP_NANOS;
	}

	@Operation
	public void record(@Param(name = "step") int step, @Param(name = "value") int value) {
		peak.record(at(step), value);
	}

	@Operation
	public long max(@Param(name = "step") int step) {
		return peak.max(at(step));
	}

	@Test
	void recordsAndReadsAreLinearizableUnderModelChecking() {
		new ModelCheckingOptions().iterations(BucketWindowLincheckTests.Rounds.lincheckIterations(50))
			.invocationsPerIteration(1_000)
			.threads(2)
			.actorsPerThread(2)
			.actorsAfter(1)
			.check(HourlyPeakLincheckTests.class);
	}

}
