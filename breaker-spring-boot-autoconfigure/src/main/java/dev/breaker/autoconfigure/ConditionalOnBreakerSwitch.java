package dev.breaker.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * A breaker switch: on for {@code true}, {@code on}, {@code yes} or {@code 1}, off for
 * {@code false}, {@code off}, {@code no} or {@code 0} (trimmed, any case), as Spring's
 * binder reads a boolean; any other value stops start-up naming the property. Spring
 * Boot's boolean condition reads every value but {@code true} as off, so
 * {@code breaker.http.enabled=on}, which the binder takes as true, would turn the feature
 * off without a word.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnBreakerSwitchCondition.class)
public @interface ConditionalOnBreakerSwitch {

	/**
	 * The switch's property, e.g. {@code breaker.http.enabled}.
	 * @return the full property name
	 */
	String value();

	/**
	 * Whether the switch is on when its property is not set.
	 * @return on when missing
	 */
	boolean matchIfMissing() default false;

}
