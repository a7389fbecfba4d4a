package dev.breaker.aspect;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SystemDelaySchedulerTests {

	@Test
	void runsAScheduledTaskOffTheTimerThread() throws Exception {
		try (SystemDelayScheduler delays = DelayScheduler.system()) {
			CountDownLatch ran = new CountDownLatch(1);
			AtomicReference<String> thread = new AtomicReference<>();
			delays.schedule(Duration.ofMillis(1), () -> {
				thread.set(Thread.currentThread().getName());
				ran.countDown();
			});
			assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(thread.get()).isNotEqualTo("breaker-timer");
		}
	}

	@Test
	void runsATimeoutOnTimeWhileTheApplicationsCommonPoolIsBusyBlocking() throws Exception {
		// the outage a breaker is for: the application's own tasks calling a hung
		// dependency hold every worker of the common fork-join pool
		ForkJoinPool common = ForkJoinPool.commonPool();
		CountDownLatch hung = new CountDownLatch(1);
		CountDownLatch holding = new CountDownLatch(common.getParallelism());
		for (int i = 0; i < common.getParallelism(); i++) {
			common.execute(() -> {
				holding.countDown();
				awaitQuietly(hung);
			});
		}
		try (SystemDelayScheduler delays = DelayScheduler.system()) {
			assertThat(holding.await(10, TimeUnit.SECONDS)).as("every common-pool worker blocked").isTrue();
			CountDownLatch timedOut = new CountDownLatch(1);
			delays.schedule(Duration.ofMillis(10), timedOut::countDown);
			assertThat(timedOut.await(5, TimeUnit.SECONDS)).as("the timeout ran while the pool was blocked").isTrue();
		}
		finally {
			hung.countDown();
		}
	}

	@Test
	void runsNoMoreTasksAtOnceThanItHasWorkersAndTheRestInTurn() throws Exception {
		int tasks = SystemDelayScheduler.WORKERS + 5;
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch started = new CountDownLatch(SystemDelayScheduler.WORKERS);
		CountDownLatch done = new CountDownLatch(tasks);
		Set<Thread> threads = ConcurrentHashMap.newKeySet();
		try (SystemDelayScheduler delays = DelayScheduler.system()) {
			for (int i = 0; i < tasks; i++) {
				delays.schedule(Duration.ofMillis(1), () -> {
					threads.add(Thread.currentThread());
					started.countDown();
					awaitQuietly(release);
					done.countDown();
				});
			}
			assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(done.getCount()).as("none finished while held").isEqualTo(tasks);
			release.countDown();
			assertThat(done.await(10, TimeUnit.SECONDS)).as("the waiting tasks ran in turn").isTrue();
			assertThat(threads).hasSize(SystemDelayScheduler.WORKERS).allMatch(Thread::isDaemon);
		}
		finally {
			release.countDown();
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void neverRunsACancelledTask() throws Exception {
		try (SystemDelayScheduler delays = DelayScheduler.system()) {
			CountDownLatch cancelledRan = new CountDownLatch(1);
			Future<?> cancelled = delays.schedule(Duration.ofMillis(50), cancelledRan::countDown);
			cancelled.cancel(false);
			CountDownLatch later = new CountDownLatch(1);
			delays.schedule(Duration.ofMillis(100), later::countDown);
			assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(cancelledRan.getCount()).isEqualTo(1);
		}
	}

	@Test
	void closingRunsTheDroppedCallbackOfAPendingTaskOnceOffTheClosingThreadAndNeverTheTask() throws Exception {
		AtomicInteger ran = new AtomicInteger();
		AtomicInteger dropped = new AtomicInteger();
		CountDownLatch ended = new CountDownLatch(1);
		AtomicReference<Thread> thread = new AtomicReference<>();
		SystemDelayScheduler delays = DelayScheduler.system();
		Future<?> pause = delays.schedule(Duration.ofHours(1), ran::incrementAndGet, () -> {
			thread.set(Thread.currentThread());
			dropped.incrementAndGet();
			ended.countDown();
		});
		delays.close();
		delays.close();
		assertThat(ended.await(10, TimeUnit.SECONDS)).as("the dropped callback ran").isTrue();
		assertThat(thread.get()).as("the dropped callback's thread").isNotSameAs(Thread.currentThread());
		assertThat(pause.cancel(false)).as("cancelled after it was dropped").isFalse();
		assertThat(dropped).as("dropped callbacks run").hasValue(1);
		assertThat(ran).as("tasks run").hasValue(0);
	}

	@Test
	void closingRunsNoDroppedCallbackForATaskCancelledOrAlreadyRun() throws Exception {
		AtomicInteger dropped = new AtomicInteger();
		CountDownLatch ran = new CountDownLatch(1);
		SystemDelayScheduler delays = DelayScheduler.system();
		delays.schedule(Duration.ofMillis(1), ran::countDown, dropped::incrementAndGet);
		assertThat(ran.await(10, TimeUnit.SECONDS)).as("the task ran").isTrue();
		Future<?> cancelled = delays.schedule(Duration.ofHours(1), () -> {
		}, dropped::incrementAndGet);
		assertThat(cancelled.cancel(false)).isTrue();
		CountDownLatch pending = new CountDownLatch(1);
		delays.schedule(Duration.ofHours(1), () -> {
		}, pending::countDown);
		delays.close();
		// the close dropped what was pending (the cancelled pause, if at all, on the same
		// thread)
		assertThat(pending.await(10, TimeUnit.SECONDS)).as("the pending pause, dropped").isTrue();
		assertThat(dropped).as("dropped callbacks run").hasValue(0);
	}

	@Test
	void aClosedSchedulerRefusesATaskUpFrontAndRunsNeitherItNorItsDroppedCallback() {
		AtomicInteger calls = new AtomicInteger();
		SystemDelayScheduler delays = DelayScheduler.system();
		delays.close();
		assertThatExceptionOfType(RejectedExecutionException.class)
			.isThrownBy(() -> delays.schedule(Duration.ofMillis(1), calls::incrementAndGet, calls::incrementAndGet));
		assertThat(calls).hasValue(0);
	}

	@Test
	void aDroppedCallbackThatThrowsLeavesTheOtherPausesToEnd() throws Exception {
		CountDownLatch dropped = new CountDownLatch(2);
		SystemDelayScheduler delays = DelayScheduler.system();
		for (int i = 0; i < 2; i++) {
			delays.schedule(Duration.ofHours(1), () -> {
			}, () -> {
				dropped.countDown();
				throw new IllegalStateException("boom");
			});
		}
		delays.close();
		assertThat(dropped.await(10, TimeUnit.SECONDS)).as("both dropped callbacks ran").isTrue();
	}

	/**
	 * What is dropped may be a timeout as well as a retry's pause: the warning says
	 * either, its exception's class and message escaped.
	 */
	@Test
	void aDroppedCallbackThatThrowsIsWarnedAsAPauseOrTimeoutEscaped() throws Exception {
		CountDownLatch dropped = new CountDownLatch(1);
		SystemDelayScheduler delays = DelayScheduler.system();
		try (WarningsLogged warnings = WarningsLogged.by(SystemDelayScheduler.class.getName())) {
			delays.schedule(Duration.ofHours(1), () -> {
			}, () -> {
				dropped.countDown();
				throw new IllegalStateException("boom\nWARN forged");
			});
			delays.close();
			assertThat(dropped.await(10, TimeUnit.SECONDS)).as("the dropped callback ran").isTrue();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (warnings.messages().isEmpty() && System.nanoTime() < deadline) {
				Thread.onSpinWait(); // logged just after the callback threw, on its
										// thread
			}
			assertThat(warnings.messages()).as("warnings")
				.singleElement()
				.isEqualTo(
						"a retry's pause or an attempt's timeout dropped by a closing scheduler could not end its call: "
								+ "java.lang.IllegalStateException: boom\\nWARN forged");
		}
	}

	@Test
	void closingEndsEachPendingPauseOnItsOwnSoADroppedCallbackThatBlocksHoldsNoOther() throws Exception {
		// each callback waits until all have started: only callbacks run independently
		// get there; run one after the other, the first waits for the others forever
		int pauses = 3;
		CountDownLatch started = new CountDownLatch(pauses);
		CountDownLatch ended = new CountDownLatch(pauses);
		CountDownLatch released = new CountDownLatch(1);
		SystemDelayScheduler delays = DelayScheduler.system();
		for (int i = 0; i < pauses; i++) {
			delays.schedule(Duration.ofHours(1), () -> {
			}, () -> {
				started.countDown();
				awaitQuietly(started);
				ended.countDown();
				awaitQuietly(released); // and then blocks, as a hung fallback does
			});
		}
		try {
			delays.close(); // returns at once: the callbacks run off the closing thread
			assertThat(ended.await(10, TimeUnit.SECONDS)).as("every dropped callback reached the others").isTrue();
		}
		finally {
			released.countDown();
		}
	}

	@Test
	void theThreadsThatEndDroppedPausesEndOnceTheirCallbacksReturned() throws Exception {
		int pauses = 20;
		Set<Thread> threads = ConcurrentHashMap.newKeySet();
		CountDownLatch dropped = new CountDownLatch(pauses);
		SystemDelayScheduler delays = DelayScheduler.system();
		for (int i = 0; i < pauses; i++) {
			delays.schedule(Duration.ofHours(1), () -> {
			}, () -> {
				threads.add(Thread.currentThread());
				dropped.countDown();
			});
		}
		delays.close();
		assertThat(dropped.await(10, TimeUnit.SECONDS)).as("every pause dropped").isTrue();
		assertThat(threads).as("the threads that ended them").isNotEmpty().hasSizeLessThanOrEqualTo(pauses);
		for (Thread thread : threads) {
			thread.join(TimeUnit.SECONDS.toMillis(30));
			assertThat(thread.isAlive()).as(thread.getName() + " alive after its callbacks").isFalse();
			assertThat(thread.isDaemon()).as(thread.getName() + " is a daemon").isTrue();
		}
	}

	@Test
	void theSharedSchedulerOutlivesAContextThatDeclaredItAsABean() throws Exception {
		// Spring infers a public close() as a bean's destroy method: the shared clock
		// must have none
		new ApplicationContextRunner().withUserConfiguration(SharedAsBean.class)
			.run((context) -> assertThat(context).hasSingleBean(DelayScheduler.class));

		CountDownLatch ran = new CountDownLatch(1);
		DelayScheduler.shared().schedule(Duration.ofMillis(1), ran::countDown);
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(DelayScheduler.shared()).isNotInstanceOf(AutoCloseable.class);
	}

	@Configuration(proxyBeanMethods = false)
	static class SharedAsBean {

		@Bean
		DelayScheduler breakerDelayScheduler() {
			return DelayScheduler.shared();
		}

	}

}
