/** The checkout demo app: a service, its flaky dependencies, chaos control, a live page and an incident demo. */
package dev.breaker.sample;
