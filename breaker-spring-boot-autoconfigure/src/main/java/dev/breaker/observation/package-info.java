/** Tracing: what a breaker did to a call, on the Micrometer observation the call runs in. */
package dev.breaker.observation;
