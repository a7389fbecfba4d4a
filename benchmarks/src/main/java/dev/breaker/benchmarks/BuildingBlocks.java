package dev.breaker.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * What the pieces of a guarded call cost on the machine that runs the benchmark, alone:
 * the floor under the targets.
 *
 * <p>
 * A breaker that counts every call (or every rejection) with an atomic add cannot be
 * cheaper than {@link #atomicAdd}; one that reads {@code System.nanoTime()} twice per
 * call pays {@link #nanoTime} twice. The cell is the thread's own (no contention), so
 * these are best cases.
 */
@State(Scope.Thread)
@Threads(1)
public class BuildingBlocks extends Measured {

	private static final VarHandle CELL;

	static {
		try {
			CELL = MethodHandles.lookup().findVarHandle(BuildingBlocks.class, "cell", long.class);
		}
		catch (ReflectiveOperationException e) {
			throw new ExceptionInInitializerError(e);
		}
	}

	private volatile long cell;

	/**
	 * One uncontended {@code lock xadd}: what counting a call in a shared counter costs
	 * at least.
	 */
	@Benchmark
	public long atomicAdd() {
		return (long) CELL.getAndAdd(this, 1L);
	}

	/** One volatile read: what checking a published state costs. */
	@Benchmark
	public long volatileRead() {
		return cell;
	}

	/**
	 * One {@code System.nanoTime()}: what timing a call with the exact clock costs, per
	 * read.
	 */
	@Benchmark
	public long nanoTime() {
		return System.nanoTime();
	}

}
