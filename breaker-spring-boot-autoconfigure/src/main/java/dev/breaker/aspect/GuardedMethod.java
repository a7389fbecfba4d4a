package dev.breaker.aspect;

import java.lang.reflect.Method;
import java.util.List;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.observation.CallObserver;
import org.aopalliance.intercept.MethodInvocation;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;

/**
 * One {@code @CircuitGuarded} method, resolved at start-up: its breaker, tenant
 * expression, fallbacks and call policy. Each call goes to the adapter of its return type
 * ({@link PlainCall}, {@link StageCall}, {@link ReactorCalls}); what they share is here
 * (which outcomes fall back, the fallback tiers) and in {@link Attempts} (the retry
 * loop).
 *
 * <p>
 * The closed path of a synchronous call without tenant or retries allocates nothing: the
 * breaker was looked up at start-up, its permit is preallocated, the outcome is an enum
 * and the call is timed on the breaker's ticker.
 */
final class GuardedMethod implements CompiledMethod {

	enum Kind {

		/** Returns a value (or void): recorded when the call returns. */
		PLAIN,

		/**
		 * Returns a CompletionStage or CompletableFuture: recorded when the stage
		 * completes.
		 */
		STAGE,

		/** Returns a Mono: recorded when it terminates. */
		MONO,

		/** Returns a Flux: recorded when it terminates. */
		FLUX

	}

	private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	private static final System.Logger LOG = System.getLogger(GuardedMethod.class.getName());

	/** Longest expression or message a tenant warning shows. */
	private static final int MAX_SHOWN = 200;

	private final String name;

	private final Method method;

	private final Class<?> targetClass;

	private final Kind kind;

	private final BreakerRegistry registry;

	private final Breaker breaker;

	private final Expression tenant;

	private final Fallbacks fallbacks;

	private final CallPolicy policy;

	private final DelayScheduler delays;

	private final List<FallbackObserver> observers;

	private final CallObserver calls;

	private final DiscardedValues discardedValues;

	private final QuietWarnings tenantWarnings;

	private final GrantedRetry.PauseFailures pauseFailures;

	GuardedMethod(String name, Method method, Class<?> targetClass, Kind kind, BreakerRegistry registry,
			Expression tenant, Fallbacks fallbacks, CallPolicy policy, DelayScheduler delays,
			List<FallbackObserver> observers, CallObserver calls, SchedulerRefusals refusals) {
		this.name = name;
		this.method = method;
		this.targetClass = targetClass;
		this.kind = kind;
		this.registry = registry;
		this.breaker = registry.breaker(name);
		this.tenant = tenant;
		this.fallbacks = fallbacks;
		this.policy = policy;
		this.delays = delays;
		this.observers = observers;
		this.calls = calls;
		this.discardedValues = new DiscardedValues(name, this.breaker);
		this.tenantWarnings = new QuietWarnings(LOG, this.breaker);
		this.pauseFailures = new GrantedRetry.PauseFailures(refusals, name);
	}

	String name() {
		return this.name;
	}

	Method method() {
		return this.method;
	}

	@Override
	public Class<?> targetClass() {
		return this.targetClass;
	}

	Kind kind() {
		return this.kind;
	}

	CallPolicy policy() {
		return this.policy;
	}

	/** The warnings of this method's retries' pauses that failed. */
	GrantedRetry.PauseFailures pauseFailures() {
		return this.pauseFailures;
	}

	DelayScheduler delays() {
		return this.delays;
	}

	/** Frees the values this method's calls discard. */
	DiscardedValues discardedValues() {
		return this.discardedValues;
	}

	Object invoke(MethodInvocation invocation) throws Throwable {
		this.calls.onCall(this.name, this.breaker);
		return switch (this.kind) {
			case PLAIN -> PlainCall.invoke(this, invocation, breakerFor(invocation));
			case STAGE -> new StageCall(this, invocation, breakerFor(invocation)).start();
			case MONO -> ReactorCalls.mono(this, invocation);
			case FLUX -> ReactorCalls.flux(this, invocation);
		};
	}

	/**
	 * Runs the method once more: through a copy of the invocation, so that every attempt
	 * (and every subscription, however late) passes through the advisors inside this one,
	 * as the first did. The invocation itself is never proceeded with on these paths, so
	 * each copy starts from here.
	 */
	static Object attempt(MethodInvocation invocation) throws Throwable {
		if (invocation instanceof ProxyMethodInvocation proxied) {
			return proxied.invocableClone().proceed();
		}
		return invocation.proceed();
	}

	/**
	 * The breaker of this call: the tenant's child when the tenant expression names one.
	 */
	Breaker breakerFor(MethodInvocation invocation) {
		if (this.tenant == null) {
			return this.breaker;
		}
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(invocation.getThis(), this.method,
				invocation.getArguments(), PARAMETER_NAMES);
		String key;
		try {
			Object value = this.tenant.getValue(context);
			key = (value != null) ? value.toString() : null;
		}
		catch (RuntimeException notEvaluated) {
			tenantNotEvaluated(notEvaluated);
			return this.breaker;
		}
		return (key != null) ? this.registry.breaker(this.name, key) : this.breaker;
	}

	/**
	 * A tenant that cannot be evaluated for a call (a property of a null argument, a
	 * {@code toString()} that throws) is no tenant, as {@code null} is: breaker's own
	 * feature must not break a call the method would have served.
	 */
	private void tenantNotEvaluated(RuntimeException cause) {
		if (this.tenantWarnings.due()) {
			this.tenantWarnings.log("the tenant of breaker '" + BreakerNames.printable(this.name) + "' ("
					+ BreakerNames.printable(this.tenant.getExpressionString(), MAX_SHOWN)
					+ ") could not be evaluated; the call went through the breaker alone: " + cause.getClass().getName()
					+ ": " + BreakerNames.printable(String.valueOf(cause.getMessage()), MAX_SHOWN), null);
		}
	}

	/**
	 * Whether an outcome sends the call to its fallbacks: a failure the breaker counts.
	 */
	static boolean counted(Outcome outcome) {
		return outcome == Outcome.FAILURE || outcome == Outcome.TIMEOUT;
	}

	/** Tells the call observers when {@code cause} is the breaker's rejection. */
	void observeRejection(Throwable cause) {
		if (cause instanceof BreakerOpenException rejection) {
			this.calls.onRejected(this.name, rejection);
		}
	}

	/**
	 * The tiers' results for a call that returns a value: the first value returned, or
	 * the last exception thrown.
	 */
	private static final Fallbacks.Results<Object> VALUE = new Fallbacks.Results<>() {

		@Override
		public Object returned(Object value, Fallbacks.Outcome<Object> tier) {
			tier.succeeded();
			return value;
		}

		@Override
		public Object exhausted(Throwable last) throws Throwable {
			throw last;
		}

	};

	Object fallback(MethodInvocation invocation, Throwable cause) throws Throwable {
		return fallback(invocation, cause, VALUE);
	}

	/**
	 * Runs the fallbacks for a call that failed with {@code cause}, the result made by
	 * {@code results}.
	 */
	<R> R fallback(MethodInvocation invocation, Throwable cause, Fallbacks.Results<R> results) throws Throwable {
		observeRejection(cause);
		return this.fallbacks.run(invocation.getThis(), invocation.getArguments(), cause, this.name, this.observers,
				results);
	}

	@Override
	public String toString() {
		return "GuardedMethod[" + this.name + " " + FallbackResolver.describe(this.method) + "]";
	}

}
