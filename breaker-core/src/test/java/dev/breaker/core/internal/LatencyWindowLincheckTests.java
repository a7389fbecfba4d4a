package dev.breaker.core.internal;

import java.util.concurrent.atomic.AtomicLong;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker explores the interleavings of concurrent records that roll the
 * latency window's two slots over (times 0..5 of 1 ns slots): whatever the interleaving,
 * once the threads are done every recorded duration is in the totals, exactly once. (The
 * window itself is allowed to show a count one ring late, so only the totals are
 * checked.)
 */
@Tag("stress")
@Param(name = "time", gen = IntGen.class, conf = "0:5")
public class LatencyWindowLincheckTests {

	private static final long DURATION = 20_000_000;

	private final LatencyWindow window = new LatencyWindow(1, 2);

	private final AtomicLong recorded = new AtomicLong();

	@Operation
	public void record(@Param(name = "time") int time) {
		window.record(DURATION, time, 0);
		recorded.incrementAndGet();
	}

	@Operation
	public void fold() {
		window.fold(DURATION);
		recorded.incrementAndGet();
	}

	@Validate
	public void everyRecordedDurationIsInTheTotalExactlyOnce() {
		long total = window.total(LatencyWindow.bin(DURATION));
		if (total != recorded.get()) {
			throw new IllegalStateException("recorded " + recorded.get() + " but the total holds " + total);
		}
	}

	@Test
	void noInterleavingOfRecordsAndRollOversLosesOrDoublesADuration() {
		new ModelCheckingOptions().iterations(BucketWindowLincheckTests.Rounds.lincheckIterations(20))
			.invocationsPerIteration(1_000)
			.threads(3)
			.actorsPerThread(3)
			.loopBound(4 * LatencyWindow.BINS) // a drain visits every bin: not a livelock
			.check(LatencyWindowLincheckTests.class);
	}

}
