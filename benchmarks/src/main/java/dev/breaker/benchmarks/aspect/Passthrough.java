package dev.breaker.benchmarks.aspect;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method for {@link PassthroughAspect}, the no-op baseline every guarding aspect
 * is measured over.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Passthrough {

}
