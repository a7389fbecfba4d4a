package dev.breaker.autoconfigure;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.breaker.core.BreakerNames;

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

	/** Longest value shown in the start-up failure, escapes included. */
	static final int SHOWN = 200;

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
		throw new InvalidBreakerPropertyException(property, shown(value.trim()), "true or false");
	}

	/**
	 * {@code value} escaped and cut to {@link #SHOWN} characters, a cut marked with an
	 * ellipsis; only the start of a huge value is looked at.
	 */
	static String shown(String value) {
		boolean cut = value.length() > SHOWN;
		String shown = BreakerNames.printable(cut ? value.substring(0, SHOWN) : value);
		if (!cut && shown.length() <= SHOWN) {
			return shown;
		}
		int end = Math.min(shown.length(), SHOWN - 1);
		if (Character.isHighSurrogate(shown.charAt(end - 1))) {
			end--;
		}
		return shown.substring(0, end) + "…";
	}

}
