/** Auto-configuration of a breaker per host for RestClient, RestTemplate and WebClient. */
package dev.breaker.autoconfigure.http;
