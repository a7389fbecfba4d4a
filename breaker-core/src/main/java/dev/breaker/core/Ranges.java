package dev.breaker.core;

import java.time.Duration;
import java.util.List;

/**
 * The kinds of {@link BreakerSetting.Range} the table uses, each with the words of its
 * failure message ("must be ...") and of the docs' "allowed" column.
 */
final class Ranges {

	/** One condition a value must meet. */
	interface Check {

		boolean holds(Object value);

	}

	/**
	 * A condition, what the message says the value must be, and what the message says is
	 * allowed.
	 */
	record Rule(Check check, String mustBe, String allowed) {
	}

	private Ranges() {
	}

	/**
	 * More than {@code min} when it is zero (positive), else at least {@code min}; at
	 * most {@code max}.
	 */
	static BreakerSetting.Range duration(Duration min, Duration max) {
		String atMost = "at most " + Numbers.format(max);
		Rule low = min.isZero()
				? new Rule((v) -> BreakerSetting.Range.positive((Duration) v), BreakerSetting.Range.POSITIVE_DURATION,
						BreakerSetting.Range.POSITIVE_DURATION)
				: new Rule((v) -> v != null && ((Duration) v).compareTo(min) >= 0, "at least " + Numbers.format(min),
						"at least " + Numbers.format(min));
		Rule high = new Rule((v) -> ((Duration) v).compareTo(max) <= 0, atMost, atMost);
		String lowText = min.isZero() ? BreakerSetting.Range.POSITIVE_DURATION : "at least " + Numbers.format(min);
		return new BreakerSetting.Range(lowText + ", " + atMost,
				BreakerSetting.Range.A_DURATION + ": " + lowText + ", " + atMost, List.of(low, high));
	}

	static BreakerSetting.Range atLeast(int min, String note) {
		return new BreakerSetting.Range(">= " + min + note,
				"an integer from " + min + " to " + Integer.MAX_VALUE + note,
				List.of(new Rule((v) -> (Integer) v >= min, "at least " + min + note, ">= " + min + note)));
	}

	static BreakerSetting.Range ints(int min, int max) {
		String range = "[" + min + ", " + max + "]";
		return new BreakerSetting.Range(range, "an integer from " + min + " to " + max,
				List.of(new Rule((v) -> (Integer) v >= min && (Integer) v <= max, "in " + range, range)));
	}

	static BreakerSetting.Range fraction(double min, double max, boolean maxIncluded, String note) {
		String range = "[" + Numbers.exact(min) + ", " + Numbers.exact(max) + (maxIncluded ? "]" : ")");
		Check check = (v) -> {
			double d = (Double) v;
			return d >= min && (maxIncluded ? d <= max : d < max);
		};
		return new BreakerSetting.Range(range + note, "a number in " + range + note,
				List.of(new Rule(check, "in " + range, range + note)));
	}

	static BreakerSetting.Range percentOrOff() {
		return new BreakerSetting.Range("(0, 100], or 0 = off", "a number in (0, 100], or 0 to turn the rule off",
				List.of(new Rule((v) -> (Double) v >= 0 && (Double) v <= 100, "in (0, 100] (or 0 to turn the rule off)",
						"(0, 100], or 0 to turn the rule off")));
	}

	static BreakerSetting.Range any() {
		return new BreakerSetting.Range("true or false", "true or false", List.of());
	}

	/** Allowed values checked by the starter, which reads them; described here. */
	static BreakerSetting.Range described(String text) {
		return new BreakerSetting.Range(text, text, List.of());
	}

}
