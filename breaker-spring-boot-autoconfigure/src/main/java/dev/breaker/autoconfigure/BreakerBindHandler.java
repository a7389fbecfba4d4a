package dev.breaker.autoconfigure;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.breaker.core.BreakerNames;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;
import org.springframework.core.convert.ConversionException;

/**
 * Binds {@code breaker.*} so that an enum-valued property with a value that is not allowed is
 * reported by breaker itself ({@link InvalidBreakerPropertyException}): the value as the user
 * typed it, and only the values that are really allowed there. Other properties bind as usual.
 */
class BreakerBindHandler extends AbstractBindHandler {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("breaker");

	/**
	 * Enum-valued properties that allow fewer values than their enum has, by the last elements of
	 * their name: {@code retry.on} takes the outcomes worth a retry only.
	 */
	private static final Map<List<String>, Set<? extends Enum<?>>> NARROWED = Map.of(List.of("retry", "on"),
			MergedInstance.RETRYABLE);

	BreakerBindHandler(BindHandler parent) {
		super(parent);
	}

	@Override
	public Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
		if (ROOT.isAncestorOf(name)) {
			Set<? extends Enum<?>> allowed = narrowed(name);
			if (allowed != null) {
				checkAllowed(name, context.getConfigurationProperty(), result, allowed);
			}
		}
		return super.onSuccess(name, target, context, result);
	}

	@Override
	public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Exception error)
			throws Exception {
		if (ROOT.isAncestorOf(name) && error instanceof ConversionException) {
			Class<?> enumType = enumType(target.getType());
			ConfigurationProperty property = context.getConfigurationProperty();
			if (enumType != null && property != null) {
				Set<? extends Enum<?>> narrowed = narrowed(name);
				String allowed = EnumValues.allowed(
						(narrowed != null) ? narrowed : Arrays.asList((Enum<?>[]) enumType.getEnumConstants()));
				throw invalid(name, isList(target.getType()), property.getValue(),
						(text) -> EnumValues.parse(enumType, text) == null, allowed, error);
			}
		}
		return super.onFailure(name, target, context, error);
	}

	private static void checkAllowed(ConfigurationPropertyName name, ConfigurationProperty property, Object result,
			Set<? extends Enum<?>> allowed) {
		Collection<?> values = (result instanceof Collection<?> collection) ? collection : List.of(result);
		if (allowed.containsAll(values)) {
			return;
		}
		if (property == null) {
			Object bad = values.stream().filter((value) -> !allowed.contains(value)).findFirst().orElseThrow();
			throw new InvalidBreakerPropertyException(name.toString(), EnumValues.typed((Enum<?>) bad),
					EnumValues.allowed(allowed));
		}
		Class<?> enumType = allowed.iterator().next().getDeclaringClass();
		throw invalid(name, result instanceof Collection<?>, property.getValue(),
				(text) -> !allowed.contains(EnumValues.parse(enumType, text)), EnumValues.allowed(allowed), null);
	}

	/**
	 * The report for a bad value: for a list written as one comma-separated value, the element that
	 * is bad, with its index; else the whole value.
	 */
	private static InvalidBreakerPropertyException invalid(ConfigurationPropertyName name, boolean list, Object raw,
			Predicate<String> bad, String allowed, Exception cause) {
		String property = BreakerNames.printable(name.toString());
		if (raw instanceof String text && list && !name.isLastElementIndexed()) {
			String[] elements = text.split(",");
			for (int i = 0; i < elements.length; i++) {
				if (bad.test(elements[i].trim())) {
					return new InvalidBreakerPropertyException(property + "[" + i + "]",
							BreakerNames.printable(elements[i].trim()), allowed, cause);
				}
			}
		}
		String value = (raw instanceof String text) ? BreakerNames.printable(text.trim()) : String.valueOf(raw);
		return new InvalidBreakerPropertyException(property, value, allowed, cause);
	}

	private static Set<? extends Enum<?>> narrowed(ConfigurationPropertyName name) {
		int last = name.getNumberOfElements() - 1;
		if (name.isLastElementIndexed()) {
			last--;
		}
		if (last < 1) {
			return null;
		}
		List<String> tail = List.of(name.getElement(last - 1, ConfigurationPropertyName.Form.UNIFORM),
				name.getElement(last, ConfigurationPropertyName.Form.UNIFORM));
		return NARROWED.get(tail);
	}

	private static boolean isList(ResolvableType type) {
		Class<?> resolved = type.resolve();
		return resolved != null && (Collection.class.isAssignableFrom(resolved) || resolved.isArray());
	}

	/** The enum a property binds to: the type itself, or the element type of a collection or array. */
	private static Class<?> enumType(ResolvableType type) {
		Class<?> resolved = type.resolve();
		if (resolved == null) {
			return null;
		}
		if (resolved.isEnum()) {
			return resolved;
		}
		if (Collection.class.isAssignableFrom(resolved) || resolved.isArray()) {
			Class<?> element = (resolved.isArray() ? type.getComponentType() : type.asCollection().getGeneric())
				.resolve();
			return (element != null && element.isEnum()) ? element : null;
		}
		return null;
	}

}
