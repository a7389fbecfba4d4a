package dev.breaker.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How the benchmarks that are compared with each other are measured, once: the average
 * time of one call in nanoseconds, two forks with a fixed 1 GiB heap, five warm-up and
 * five measured iterations of two seconds. JMH reads these annotations off the
 * superclass; a subclass states its own {@code @State} and {@code @Threads}, and
 * {@code benchmarks/run}'s options override the counts.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class Measured {

}
