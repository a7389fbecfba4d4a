/**
 * Fleet mode measured: the call path with sharing on and off, how fast a trip reaches
 * every replica of a fleet of ten, the Redis commands each replica sends, and a replica
 * starting while 100,000 circuits are open.
 */
@NullMarked
package dev.breaker.benchmarks.fleet;

import org.jspecify.annotations.NullMarked;
