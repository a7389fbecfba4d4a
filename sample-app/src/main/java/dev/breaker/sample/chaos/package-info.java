/**
 * Chaos control: the HTTP API that switches a dependency between healthy, slow, wedged,
 * down and flaky.
 */
@NullMarked
package dev.breaker.sample.chaos;

import org.jspecify.annotations.NullMarked;
