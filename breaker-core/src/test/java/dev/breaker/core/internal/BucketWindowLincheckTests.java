package dev.breaker.core.internal;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: concurrent records, reads and roll-overs of the bucket window are
 * linearizable, i.e. every concurrent run reads as some one-at-a-time order of the same
 * operations (run on this class itself). One stripe and two buckets of 1 ns, and times
 * 0..5, so writers contend on the same words, buckets roll over, and late writers meet
 * newer buckets. A bucket is read one word at a time (one stripe), the way the window's
 * sum reads each bucket.
 */
@Tag("stress")
@Param(name = "kind", gen = IntGen.class, conf = "0:1")
@Param(name = "time", gen = IntGen.class, conf = "0:5")
public class BucketWindowLincheckTests {

	private final BucketWindow window = new BucketWindow(1, 2, 2, 1);

	@Operation
	public void record(@Param(name = "kind") int kind, @Param(name = "time") int time) {
		window.record(kind, time);
	}

	@Operation
	public void finish(@Param(name = "time") int epoch) {
		window.add(1, epoch, -1);
	}

	@Operation
	public long count(@Param(name = "kind") int kind, @Param(name = "time") int epoch) {
		return window.count(kind, epoch);
	}

	@Test
	void recordsReadsAndRollOversAreLinearizableUnderModelChecking() {
		new ModelCheckingOptions().iterations(Rounds.lincheckIterations(15))
			.invocationsPerIteration(1_000)
			.threads(3)
			.actorsPerThread(3)
			.check(BucketWindowLincheckTests.class);
	}

	@Test
	void recordsReadsAndRollOversAreLinearizableUnderStress() {
		new StressOptions().iterations(Rounds.lincheckIterations(15))
			.invocationsPerIteration(300)
			.threads(3)
			.actorsPerThread(3)
			.check(BucketWindowLincheckTests.class);
	}

	/** Iteration counts: {@code -Dbreaker.stress=long} runs ten times the CI default. */
	static final class Rounds {

		static int lincheckIterations(int ciDefault) {
			return "long".equals(System.getProperty("breaker.stress")) ? ciDefault * 10 : ciDefault;
		}

	}

}
