package dev.breaker.benchmarks.aspect;

import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The cost of guarding a Spring bean's method, all four ways in one Boot 4 context: a plain bean
 * call, a no-op {@code @Around} aspect, {@code @CircuitGuarded} and Resilience4j's
 * {@code @CircuitBreaker}, each breaker with its library's defaults and closed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
public class AspectCall {

    /** The breaker name both annotations use. */
    static final String BREAKER = "bench";

    private ConfigurableApplicationContext context;
    private Clients.Plain plain;
    private Clients.Passthrough passthrough;
    private Clients.Resilience4j resilience4j;

    @Setup(Level.Trial)
    public void startContext() {
        context = new SpringApplicationBuilder(AspectBenchmarkApplication.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties("logging.level.root=WARN")
                .run();
        plain = context.getBean(Clients.Plain.class);
        passthrough = context.getBean(Clients.Passthrough.class);
        resilience4j = context.getBean(Clients.Resilience4j.class);
        if (AopUtils.isAopProxy(plain)) {
            throw new IllegalStateException("the plain client must not be proxied");
        }
        for (Object client : new Object[] {passthrough, resilience4j}) {
            if (!AopUtils.isAopProxy(client)) {
                throw new IllegalStateException(client.getClass().getName() + " is not proxied: its aspect is not applied");
            }
        }
    }

    @TearDown(Level.Trial)
    public void closeContext() {
        try {
            requireClosed();
        } finally {
            context.close();
        }
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
    public void r4jCircuitBreaker(Blackhole bh) {
        bh.consume(resilience4j.call());
    }

    /** Both breakers must have stayed closed (and Resilience4j's must exist: the aspect ran). */
    void requireClosed() {
        CircuitBreaker r4j = context.getBean(CircuitBreakerRegistry.class).find(BREAKER)
                .orElseThrow(() -> new IllegalStateException("Resilience4j's aspect never created breaker '" + BREAKER + "'"));
        if (r4j.getState() != CircuitBreaker.State.CLOSED) {
            throw new IllegalStateException("Resilience4j breaker '" + BREAKER + "' is " + r4j.getState());
        }
    }
}
