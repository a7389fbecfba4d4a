/** The incident demo ({@code --demo}): a load generator and a scripted outage run against the app itself. */
package dev.breaker.sample.demo;
