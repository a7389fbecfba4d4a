/**
 * The checkout demo app: a service, its flaky dependencies, chaos control, a live page
 * and an incident demo.
 */
@NullMarked
package dev.breaker.sample;

import org.jspecify.annotations.NullMarked;
