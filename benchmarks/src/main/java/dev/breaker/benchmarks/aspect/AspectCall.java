package dev.breaker.benchmarks.aspect;

import dev.breaker.benchmarks.Measured;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The cost of guarding a Spring bean's method, five ways in one Boot 4 context: a plain
 * bean call, a no-op AspectJ {@code @Around} aspect, a no-op {@code MethodInterceptor}
 * advisor, {@code @CircuitGuarded} (an advisor with its interceptor) and Resilience4j's
 * {@code @CircuitBreaker} (an AspectJ aspect), each breaker with its library's defaults
 * and closed.
 */
@State(Scope.Benchmark)
@Threads(1)
public class AspectCall extends Measured {

	/** The breaker name both annotations use. */
	static final String BREAKER = "bench";

	private ConfigurableApplicationContext context;

	private Clients.Plain plain;

	private Clients.Passthrough passthrough;

	private Clients.Intercepted intercepted;

	private Clients.Guarded guarded;

	private Clients.Resilience4j resilience4j;

	@Setup(Level.Trial)
	public void startContext() {
		context = new SpringApplicationBuilder(AspectBenchmarkApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("logging.level.root=WARN")
			.run();
		plain = context.getBean(Clients.Plain.class);
		passthrough = context.getBean(Clients.Passthrough.class);
		intercepted = context.getBean(Clients.Intercepted.class);
		guarded = context.getBean(Clients.Guarded.class);
		resilience4j = context.getBean(Clients.Resilience4j.class);
		if (AopUtils.isAopProxy(plain)) {
			throw new IllegalStateException("the plain client must not be proxied");
		}
		for (Object client : new Object[] { passthrough, intercepted, guarded, resilience4j }) {
			if (!AopUtils.isAopProxy(client)) {
				throw new IllegalStateException(
						client.getClass().getName() + " is not proxied: its aspect is not applied");
			}
		}
	}

	@TearDown(Level.Trial)
	public void closeContext(BenchmarkParams params) {
		String measured = params.getBenchmark();
		try {
			requireBreakersClosed(measured.endsWith(".circuitGuarded"), measured.endsWith(".r4jCircuitBreaker"));
		}
		finally {
			stopContext();
		}
	}

	void stopContext() {
		context.close();
	}

	@Benchmark
	public void plainBean(Blackhole bh) {
		bh.consume(plain.call());
	}

	@Benchmark
	public void noopAspect(Blackhole bh) {
		bh.consume(passthrough.call());
	}

	@Benchmark
	public void noopInterceptor(Blackhole bh) {
		bh.consume(intercepted.call());
	}

	@Benchmark
	public void circuitGuarded(Blackhole bh) {
		bh.consume(guarded.call());
	}

	@Benchmark
	public void r4jCircuitBreaker(Blackhole bh) {
		bh.consume(resilience4j.call());
	}

	/**
	 * Every breaker that exists is still closed; the ones named here must exist and have
	 * recorded successes, proving the measured calls really went through them.
	 */
	void requireBreakersClosed(boolean guardedUsed, boolean resilience4jUsed) {
		Breaker breaker = context.getBean(BreakerRegistry.class).find(BREAKER).orElse(null);
		long successes = breaker == null ? 0 : breaker.totals().calls(Outcome.SUCCESS);
		if (breaker != null && breaker.state() != dev.breaker.core.State.CLOSED || guardedUsed && successes == 0) {
			throw new IllegalStateException("breaker '" + BREAKER + "' is "
					+ (breaker == null ? "missing" : breaker.state()) + " after " + successes + " successes");
		}
		CircuitBreaker r4j = context.getBean(CircuitBreakerRegistry.class).find(BREAKER).orElse(null);
		long r4jSuccesses = r4j == null ? 0 : r4j.getMetrics().getNumberOfSuccessfulCalls();
		if (r4j != null && r4j.getState() != CircuitBreaker.State.CLOSED || resilience4jUsed && r4jSuccesses == 0) {
			throw new IllegalStateException("Resilience4j breaker '" + BREAKER + "' is "
					+ (r4j == null ? "missing" : r4j.getState()) + " after " + r4jSuccesses + " successes");
		}
	}

}
