package dev.breaker.autoconfigure;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
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
 * Binds {@code breaker.*} so that an enum-valued property with a value that is not
 * allowed is reported by breaker itself ({@link InvalidBreakerPropertyException}): the
 * value as the user typed it, and the values allowed there. Other properties bind as
 * usual; a list of outcomes narrower than its enum ({@code retry.on}) binds as text and
 * is checked where it is read.
 */
class BreakerBindHandler extends AbstractBindHandler {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("breaker");

	BreakerBindHandler(BindHandler parent) {
		super(parent);
	}

	@Override
	public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Exception error)
			throws Exception {
		if (ROOT.isAncestorOf(name) && error instanceof ConversionException) {
			Class<?> enumType = enumType(target.getType());
			ConfigurationProperty property = context.getConfigurationProperty();
			if (enumType != null && property != null) {
				String allowed = EnumValues.allowed(Arrays.asList((Enum<?>[]) enumType.getEnumConstants()));
				throw invalid(name, isList(target.getType()), property.getValue(),
						(text) -> EnumValues.parse(enumType, text) == null, allowed, error);
			}
		}
		return super.onFailure(name, target, context, error);
	}

	/**
	 * The report for a bad value: for a list written as one comma-separated value, the
	 * element that is bad, with its index; else the whole value.
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

	private static boolean isList(ResolvableType type) {
		Class<?> resolved = type.resolve();
		return resolved != null && (Collection.class.isAssignableFrom(resolved) || resolved.isArray());
	}

	/**
	 * The enum a property binds to: the type itself, or the element type of a collection
	 * or array.
	 */
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
