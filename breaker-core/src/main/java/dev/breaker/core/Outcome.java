package dev.breaker.core;

/** How one finished call counts toward the breaker's rules. */
public enum Outcome {
    /** The call worked. */
    SUCCESS,
    /** The dependency failed (connection error, 5xx, a failure result...). */
    FAILURE,
    /** The call timed out; counts {@code timeoutWeight} toward the failure rate. */
    TIMEOUT,
    /** The caller's fault (validation error, 4xx): neither success nor failure. */
    IGNORED,
    /** The dependency asked us to slow down (429, rate limit): reported, not a failure. */
    THROTTLED
}
