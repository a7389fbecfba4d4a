package dev.breaker.autoconfigure;

import java.util.Locale;

import dev.breaker.core.BreakerNames;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code breaker.enabled}: on when missing or {@code true}, off when {@code false}, and
 * anything else stops start-up naming the property. Spring Boot's boolean condition reads
 * every value but {@code true} as off, so a typo ({@code ture}) would turn every breaker
 * off without a word, and with it every check of the other {@code breaker.*} keys.
 */
class OnBreakerEnabledCondition extends SpringBootCondition {

	static final String PROPERTY = "breaker.enabled";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		String value = context.getEnvironment().getProperty(PROPERTY);
		if (value == null) {
			return ConditionOutcome.match(PROPERTY + " is not set");
		}
		String typed = value.trim().toLowerCase(Locale.ROOT);
		if ("true".equals(typed)) {
			return ConditionOutcome.match(PROPERTY + " is true");
		}
		if ("false".equals(typed)) {
			return ConditionOutcome.noMatch(PROPERTY + " is false");
		}
		throw new InvalidBreakerPropertyException(PROPERTY, BreakerNames.printable(value.trim()), "true or false");
	}

}
