/** Lock-free building blocks of the engine; not part of the public API. */
package dev.breaker.core.internal;
