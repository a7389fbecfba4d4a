/** The sample's remote dependencies: real HTTP servers on loopback whose behaviour chaos control can change. */
package dev.breaker.sample.dependency;
