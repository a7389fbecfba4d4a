package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import dev.breaker.core.BreakerSetting;
import dev.breaker.core.ChildKeys;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.PlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.ResolvableType;
import org.springframework.core.convert.ConversionException;
import org.springframework.util.ClassUtils;

/**
 * Binds {@code breaker.*} so that a value that cannot be read as its property's type (an
 * enum value that does not exist, a boolean typo, a number too large for its type, a
 * duration misspelt) is reported by breaker itself
 * ({@link InvalidBreakerPropertyException}): the value as the user typed it, and what is
 * allowed there (for a breaker setting, its range from {@link BreakerSetting}). Other
 * properties bind as usual; a list of outcomes narrower than its enum ({@code retry.on})
 * binds as text and is checked where it is read.
 */
public class BreakerBindHandler extends AbstractBindHandler {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("breaker");

	/**
	 * What a value of a type outside the settings table must be, by type (the boxed
	 * type).
	 */
	private static final Map<Class<?>, String> ALLOWED_BY_TYPE = Map.of(Boolean.class, "true or false", Integer.class,
			"an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE, Long.class,
			"an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE, Double.class, "a number", Duration.class,
			BreakerSetting.Range.A_DURATION);

	/**
	 * What a value must be for the properties outside the settings table whose own check
	 * allows less than their type, as that check says it.
	 */
	private static final Map<String, String> ALLOWED_BY_PROPERTY = Map.of("breaker.http.max-hosts",
			"an integer from 1 to " + Integer.MAX_VALUE, "breaker.http.max-key-length",
			"an integer in [" + ChildKeys.MIN_MAX_LENGTH + ", " + ChildKeys.MAX_MAX_LENGTH + "]",
			"breaker.http.retry.jitter", BreakerSetting.RETRY_JITTER.range().typed(), "breaker.shared.redis.quorum",
			"an integer from 1 to " + Integer.MAX_VALUE + " (1: any replica's trip opens the fleet)");

	/**
	 * What a key naming a group of settings (a breaker, a host, a retry) allows: a value
	 * there is most often a {@code .properties} key its own {@code :} cut short
	 * ({@code breaker.http.instances[api.acme.com:8443].consecutive-failures=2} reads as
	 * the key {@code breaker.http.instances[api.acme.com}).
	 */
	static final String SETTINGS_NOT_A_VALUE = "settings below this key, not a value of its own; in a .properties file "
			+ "a ':' in a key ends the key: write a host's port as [api.acme.com\\:8443], or use YAML";

	private final PlaceholdersResolver placeholders;

	/**
	 * A handler over another, judging values as written (a placeholder is not resolved).
	 * @param parent the handler this one falls back to
	 */
	public BreakerBindHandler(BindHandler parent) {
		this(parent, PlaceholdersResolver.NONE);
	}

	/**
	 * A handler over another, judging each value as the binder reads it: with its
	 * placeholders resolved ({@code open-wait: ${WAIT}} is refused as {@code 30} when
	 * {@code WAIT=30}).
	 * @param parent the handler this one falls back to
	 * @param placeholders the binder's resolver of placeholders
	 */
	public BreakerBindHandler(BindHandler parent, PlaceholdersResolver placeholders) {
		super(parent);
		this.placeholders = placeholders;
	}

	@Override
	public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Exception error)
			throws Exception {
		ConfigurationProperty property = property(name, context);
		if (ROOT.isAncestorOf(name) && error instanceof ConversionException && property != null) {
			Class<?> type = valueType(target.getType());
			boolean list = isList(target.getType());
			if (type != null && type.isEnum()) {
				String allowed = EnumValues.allowed(Arrays.asList((Enum<?>[]) type.getEnumConstants()));
				throw invalid(name, list, value(property), (text) -> EnumValues.parse(type, text) == null, allowed,
						error);
			}
			if (type != null && !list && isSettingsGroup(type)) {
				throw invalid(name, false, value(property), (text) -> true, SETTINGS_NOT_A_VALUE, error);
			}
			String allowed = (type != null) ? allowed(name, ClassUtils.resolvePrimitiveIfNecessary(type)) : null;
			if (allowed != null) {
				Class<?> boxed = ClassUtils.resolvePrimitiveIfNecessary(type);
				throw invalid(name, list, value(property), (text) -> !converts(text, boxed), allowed, error);
			}
		}
		return super.onFailure(name, target, context, error);
	}

	/**
	 * Refuses a duration written as a number alone ({@code open-wait: 30}): it converts,
	 * as milliseconds, which is almost never what was meant (30s), so only the raw value
	 * shows it, with its placeholders resolved as the binder resolved them
	 * ({@code ${WAIT}} with {@code WAIT=30} converted the same way). A plain {@code 0} is
	 * the same in every unit and is left alone.
	 */
	@Override
	public Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
		ConfigurationProperty property = context.getConfigurationProperty();
		// the property bound here, not one an element of the list bound before
		if (ROOT.isAncestorOf(name) && property != null && name.equals(property.getName())
				&& valueType(target.getType()) == Duration.class) {
			Object raw = value(property);
			boolean unitless = (raw instanceof Number number) ? number.doubleValue() != 0
					: (raw instanceof String text && hasUnitless(text));
			if (unitless) {
				throw invalid(name, isList(target.getType()), raw, BreakerBindHandler::isUnitless, UNIT_REQUIRED, null);
			}
		}
		return super.onSuccess(name, target, context, result);
	}

	/**
	 * The property's value as the binder converted it: its placeholders resolved, so a
	 * report shows what was read, not {@code ${WAIT}}.
	 */
	private @Nullable Object value(ConfigurationProperty property) {
		return this.placeholders.resolvePlaceholders(property.getValue());
	}

	/** What a duration written as a number alone is told. */
	static final String UNIT_REQUIRED = "a duration with its unit, such as 500ms, 30s or 5m "
			+ "(a number alone would be read as milliseconds)";

	/** Whether text is a whole number other than zero, with no unit. */
	private static boolean isUnitless(String text) {
		String trimmed = text.trim();
		return trimmed.matches("[+-]?[0-9]+") && !trimmed.matches("[+-]?0+");
	}

	/**
	 * Whether the text, or any element of it read as a comma-separated list, is a number
	 * alone.
	 */
	private static boolean hasUnitless(String text) {
		return Arrays.stream(text.split(",")).anyMatch(BreakerBindHandler::isUnitless);
	}

	/**
	 * What a property of this type allows: the range of the breaker setting it is (under
	 * {@code breaker.defaults}, {@code breaker.instances.<name>} or
	 * {@code breaker.http.instances[<host>]}), else what the property's own check allows,
	 * else what the type allows; null for a type left to Spring Boot's report.
	 */
	private static @Nullable String allowed(ConfigurationPropertyName name, Class<?> type) {
		BreakerSetting setting = setting(name);
		if (setting != null && setting.type() == type) {
			return setting.range().typed();
		}
		String own = ALLOWED_BY_PROPERTY.get(name.toString());
		return (own != null) ? own : ALLOWED_BY_TYPE.get(type);
	}

	/** The breaker setting a property sets, or null. */
	private static @Nullable BreakerSetting setting(ConfigurationPropertyName name) {
		int start = settingStart(name);
		if (start < 0) {
			return null;
		}
		StringBuilder key = new StringBuilder();
		for (int i = start; i < name.getNumberOfElements(); i++) {
			key.append((i > start) ? "." : "").append(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
		}
		for (BreakerSetting setting : BreakerSetting.values()) {
			if (KeyNode.uniform(setting.property()).equals(KeyNode.uniform(key.toString()))) {
				return setting;
			}
		}
		return null;
	}

	/**
	 * Where the setting's own key begins in a property's name, or -1 if it is not a
	 * breaker setting's property.
	 */
	private static int settingStart(ConfigurationPropertyName name) {
		String second = (name.getNumberOfElements() > 1) ? element(name, 1) : "";
		if ("defaults".equals(second)) {
			return 2;
		}
		if ("instances".equals(second)) {
			return 3;
		}
		if ("http".equals(second) && name.getNumberOfElements() > 2 && "instances".equals(element(name, 2))) {
			return 4;
		}
		return -1;
	}

	private static String element(ConfigurationPropertyName name, int index) {
		return name.getElement(index, ConfigurationPropertyName.Form.UNIFORM);
	}

	/** Whether one element of a list would convert, to find the bad one. */
	private static boolean converts(String text, Class<?> type) {
		try {
			return ApplicationConversionService.getSharedInstance().convert(text, type) != null;
		}
		catch (ConversionException ex) {
			return false;
		}
	}

	/**
	 * The report for a bad value: for a list written as one comma-separated value, the
	 * element that is bad, with its index (an empty element binds as null: not the bad
	 * one); else the whole value. Both are printed escaped and bounded.
	 */
	private static InvalidBreakerPropertyException invalid(ConfigurationPropertyName name, boolean list, Object raw,
			Predicate<String> bad, String allowed, @Nullable Exception cause) {
		String property = InvalidBreakerPropertyException.printed(name.toString());
		if (raw instanceof String text && list && !name.isLastElementIndexed()) {
			String[] elements = text.split(",");
			for (int i = 0; i < elements.length; i++) {
				String element = elements[i].trim();
				if (!element.isEmpty() && bad.test(element)) {
					return new InvalidBreakerPropertyException(property + "[" + i + "]", element, allowed, cause);
				}
			}
		}
		String value = (raw instanceof String text) ? text.trim() : String.valueOf(raw);
		return new InvalidBreakerPropertyException(property, value, allowed, cause);
	}

	/**
	 * The property that failed to bind: the binder's current one, or for a value that
	 * stands where a map's entry of settings should (no current property then), the value
	 * under that name in the first source that has one.
	 */
	private static @Nullable ConfigurationProperty property(ConfigurationPropertyName name, BindContext context) {
		ConfigurationProperty current = context.getConfigurationProperty();
		if (current != null) {
			return current;
		}
		for (ConfigurationPropertySource source : context.getSources()) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return property;
			}
		}
		return null;
	}

	/**
	 * Whether a type is one of breaker's own groups of properties (no value binds to it).
	 */
	private static boolean isSettingsGroup(Class<?> type) {
		return !type.isEnum() && type.getName().startsWith("dev.breaker.autoconfigure.");
	}

	private static boolean isList(ResolvableType type) {
		Class<?> resolved = type.resolve();
		return resolved != null && (Collection.class.isAssignableFrom(resolved) || resolved.isArray());
	}

	/**
	 * The type of the value a property binds to: the type itself, or the element type of
	 * a collection or array.
	 */
	private static @Nullable Class<?> valueType(ResolvableType type) {
		Class<?> resolved = type.resolve();
		if (resolved == null) {
			return null;
		}
		if (Collection.class.isAssignableFrom(resolved) || resolved.isArray()) {
			return (resolved.isArray() ? type.getComponentType() : type.asCollection().getGeneric()).resolve();
		}
		return resolved;
	}

}
