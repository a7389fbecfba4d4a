/**
 * A breaker per remote host for Spring's HTTP clients, judging outcomes by HTTP status
 * and I/O error.
 */
@NullMarked
package dev.breaker.http;

import org.jspecify.annotations.NullMarked;
