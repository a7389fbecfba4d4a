package dev.breaker.autoconfigure;

import java.util.Set;
import java.util.TreeSet;

import dev.breaker.aspect.GuardedMethodRegistry;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Warns once at start-up about each name under {@code breaker.instances} that no
 * {@code @CircuitGuarded} method uses and no bean has created a breaker for: most likely
 * a typo.
 */
public class UnusedInstancesWarning implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(UnusedInstancesWarning.class);

	private final BreakerProperties properties;

	private final BreakerRegistry registry;

	private final ObjectProvider<GuardedMethodRegistry> guardedMethods;

	private final ObjectProvider<BreakerNamesInUse> namesInUse;

	/**
	 * Create the warning.
	 * @param properties the configured instances
	 * @param registry the registry, holding the breakers beans created at start-up
	 * @param guardedMethods the guarded methods, when the advisor is on
	 * @param namesInUse names other parts of the application use, such as the HTTP
	 * breakers' group
	 */
	public UnusedInstancesWarning(BreakerProperties properties, BreakerRegistry registry,
			ObjectProvider<GuardedMethodRegistry> guardedMethods, ObjectProvider<BreakerNamesInUse> namesInUse) {
		this.properties = properties;
		this.registry = registry;
		this.guardedMethods = guardedMethods;
		this.namesInUse = namesInUse;
	}

	@Override
	public void afterSingletonsInstantiated() {
		GuardedMethodRegistry methods = this.guardedMethods.getIfAvailable();
		Set<String> used = new TreeSet<>((methods != null) ? methods.names() : Set.of());
		this.namesInUse.orderedStream().forEach((names) -> used.addAll(names.names()));
		for (String name : this.properties.getInstances().keySet()) {
			if (!used.contains(name) && this.registry.find(name).isEmpty()) {
				logger.warn("'" + BreakerNames.printable(BreakerProperties.path(name)) + "' is configured, but no "
						+ "@CircuitGuarded method uses a breaker named '" + BreakerNames.printable(name)
						+ "' and no bean has created one (a typo?). Names in use: "
						+ BreakerNames.printable(used.toString()));
			}
		}
	}

}
