/** Lock-free building blocks of the engine; not part of the public API. */
@NullMarked
package dev.breaker.core.internal;

import org.jspecify.annotations.NullMarked;
