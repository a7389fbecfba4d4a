/**
 * Fleet mode measured: the call path with sharing on and off, and how fast a trip reaches another replica.
 */
package dev.breaker.benchmarks.fleet;
