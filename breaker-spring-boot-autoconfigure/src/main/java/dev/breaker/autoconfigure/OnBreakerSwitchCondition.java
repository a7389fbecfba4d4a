package dev.breaker.autoconfigure;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@link ConditionalOnBreakerSwitch}: the switch's value read as Spring's binder reads a
 * boolean, and anything else refused.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 40)
class OnBreakerSwitchCondition extends SpringBootCondition {

	private static final Set<String> ON = Set.of("true", "on", "yes", "1");

	private static final Set<String> OFF = Set.of("false", "off", "no", "0");

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnBreakerSwitch.class.getName());
		String property = (String) attributes.get("value");
		boolean matchIfMissing = (Boolean) attributes.get("matchIfMissing");
		String value = context.getEnvironment().getProperty(property);
		if (value == null) {
			return new ConditionOutcome(matchIfMissing, property + " is not set");
		}
		String typed = value.trim().toLowerCase(Locale.ROOT);
		if (ON.contains(typed)) {
			return ConditionOutcome.match(property + " is " + typed);
		}
		if (OFF.contains(typed)) {
			return ConditionOutcome.noMatch(property + " is " + typed);
		}
		throw new InvalidBreakerPropertyException(property, value.trim(), "true or false");
	}

}
