package dev.breaker.benchmarks.aspect;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** The Boot application the aspect benchmark starts: auto-configuration of both libraries, and the four clients. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class AspectBenchmarkApplication {

    @Bean
    PassthroughAspect passthroughAspect() {
        return new PassthroughAspect();
    }

    @Bean
    Clients.Plain plainClient() {
        return new Clients.Plain();
    }

    @Bean
    Clients.Passthrough passthroughClient() {
        return new Clients.Passthrough();
    }

    @Bean
    Clients.Guarded guardedClient() {
        return new Clients.Guarded();
    }

    @Bean
    Clients.Resilience4j resilience4jClient() {
        return new Clients.Resilience4j();
    }
}
