/**
 * The circuit breaker engine: {@code dev.breaker.core} is the API, {@code dev.breaker.core.spi} the hooks for
 * shared-state store implementations; {@code dev.breaker.core.internal} stays inside.
 */
module dev.breaker.core {
    requires static transitive org.jspecify;

    exports dev.breaker.core;
    exports dev.breaker.core.spi;
}
