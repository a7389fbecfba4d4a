package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

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
