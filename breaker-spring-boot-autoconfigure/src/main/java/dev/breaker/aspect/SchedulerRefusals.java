package dev.breaker.aspect;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.breaker.core.Breaker;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Why a scheduler refused a delay of a guarded call or an HTTP request's retry (a
 * {@code RejectedExecutionException} as it was slept or scheduled): because the
 * application context is closing (the scheduler closed with it refuses everything still
 * in flight, the normal end of a shutdown: a debug line), or while the context is live
 * (its executor is saturated: a warning, at most one a minute per breaker, counting those
 * not logged since). A refusal while closing ends an attempt's timeout as a timeout the
 * close dropped.
 * <p>
 * A bean of its context, it hears that context close (not a child's, whose events reach
 * it too); the guarded methods' registry keeps one of its own and passes it what it
 * hears, the HTTP clients share the one their auto-configuration makes.
 */
public final class SchedulerRefusals implements ApplicationListener<ContextClosedEvent>, BeanFactoryAware {

	/** Always a closing context's ({@link #withoutContext()}). */
	private static final SchedulerRefusals ALWAYS_CLOSING = new SchedulerRefusals(true);

	private static final System.Logger LOG = System.getLogger(DelayScheduler.class.getName());

	/** The saturation warnings, per guarded breaker name (tenants with their group). */
	private final Map<String, QuietWarnings> saturated = new ConcurrentHashMap<>();

	private volatile @Nullable BeanFactory beanFactory;

	private volatile boolean closing;

	/** Refusals of a live context, until it closes. */
	public SchedulerRefusals() {
		this(false);
	}

	private SchedulerRefusals(boolean closing) {
		this.closing = closing;
	}

	/**
	 * For retry loops made without a context (an HTTP client's interceptor or filter made
	 * by hand): every refusal is taken for a shutdown's, a debug line.
	 * @return refusals that are always a closing context's
	 */
	public static SchedulerRefusals withoutContext() {
		return ALWAYS_CLOSING;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/** Its context closes (not a child's, whose events reach it too). */
	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		if (event.getApplicationContext() instanceof ConfigurableApplicationContext closed
				&& closed.getBeanFactory() == this.beanFactory) {
			contextClosing();
		}
	}

	/** The context closes: from now on every refusal is the shutdown's. */
	void contextClosing() {
		this.closing = true;
	}

	boolean closing() {
		return this.closing;
	}

	/**
	 * The saturation warnings of breaker {@code name}, paced by {@code breaker}'s ticker.
	 */
	QuietWarnings saturated(String name, Breaker breaker) {
		return this.saturated.computeIfAbsent(name, (key) -> new QuietWarnings(LOG, breaker));
	}

}
