/** A breaker per remote host for Spring's HTTP clients, judging outcomes by HTTP status and I/O error. */
package dev.breaker.http;
