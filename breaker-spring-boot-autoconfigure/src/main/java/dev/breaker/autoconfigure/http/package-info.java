/**
 * Auto-configuration of a breaker per host for RestClient, RestTemplate and WebClient.
 */
@NullMarked
package dev.breaker.autoconfigure.http;

import org.jspecify.annotations.NullMarked;
