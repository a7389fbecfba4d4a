package dev.breaker.autoconfigure;

import dev.breaker.autoconfigure.BreakerProperties.Instance;
import dev.breaker.core.BreakerSetting;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;

/**
 * One breaker's settings in layers: its own instance over the one it inherits from
 * ({@code breaker.defaults}), over the table's defaults. Reads each setting from the
 * layer that set it, and names the property where that value was written, so that an
 * error points at the line to fix.
 */
final class LayeredInstance {

	private final String path;

	private final BeanWrapper own;

	private final BeanWrapper defaults;

	/**
	 * @param path the instance's property prefix, e.g. {@code breaker.instances.payments}
	 * @param own the instance's own settings
	 * @param defaults the settings it inherits, or {@code null} for none (the defaults
	 * themselves)
	 */
	LayeredInstance(String path, Instance own, @Nullable Instance defaults) {
		this.path = path;
		this.own = PropertyAccessorFactory.forBeanPropertyAccess(own);
		this.defaults = PropertyAccessorFactory.forBeanPropertyAccess((defaults != null) ? defaults : new Instance());
	}

	/** The instance's property prefix, e.g. {@code breaker.instances.payments}. */
	String path() {
		return this.path;
	}

	/**
	 * The instance's value of a setting if it set one, else the inherited one (or the
	 * default).
	 */
	@SuppressWarnings("unchecked")
	<T> @Nullable T pick(BreakerSetting setting) {
		String beanPath = beanPath(setting);
		BeanWrapper from = isSet(this.own, beanPath) ? this.own : this.defaults;
		return (T) from.getPropertyValue(beanPath);
	}

	/** As {@link #pick}, with the table's default when the value is {@code null}. */
	@SuppressWarnings("unchecked")
	<T> T orDefault(BreakerSetting setting) {
		T value = pick(setting);
		return (value != null) ? value : (T) setting.defaultValue();
	}

	/**
	 * The prefix of the property a merged value came from: the instance's, or the
	 * defaults'.
	 */
	String source(BreakerSetting setting) {
		String beanPath = beanPath(setting);
		if (!isSet(this.own, beanPath) && isSet(this.defaults, beanPath)) {
			return BreakerProperties.DEFAULTS_PREFIX;
		}
		return this.path;
	}

	/**
	 * Whether the settings in {@code wrapper} were given a value at {@code beanPath}
	 * (bound or set).
	 */
	private static boolean isSet(BeanWrapper wrapper, String beanPath) {
		int dot = beanPath.lastIndexOf('.');
		Object owner = (dot < 0) ? wrapper.getWrappedInstance() : wrapper.getPropertyValue(beanPath.substring(0, dot));
		return (owner instanceof BreakerProperties.Inheriting settings) && settings.isSet(beanPath.substring(dot + 1));
	}

	/** The full property name where the merged value of {@code setting} came from. */
	String property(BreakerSetting setting) {
		return source(setting) + "." + setting.property();
	}

	/**
	 * {@code half-open.max-probes} reads {@code halfOpen.maxProbes} on an
	 * {@link Instance}.
	 */
	static String beanPath(BreakerSetting setting) {
		StringBuilder path = new StringBuilder();
		boolean upper = false;
		for (char c : setting.property().toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				path.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return path.toString();
	}

}
