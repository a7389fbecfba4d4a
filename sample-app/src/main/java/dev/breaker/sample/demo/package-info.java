/**
 * The incident demo ({@code --demo}): a load generator and a scripted outage run against
 * the app itself.
 */
@NullMarked
package dev.breaker.sample.demo;

import org.jspecify.annotations.NullMarked;
