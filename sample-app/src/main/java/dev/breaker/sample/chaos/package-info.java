/** Chaos control: the HTTP API that switches a dependency between healthy, slow, wedged, down and flaky. */
package dev.breaker.sample.chaos;
