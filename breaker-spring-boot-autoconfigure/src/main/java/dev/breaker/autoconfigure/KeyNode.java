package dev.breaker.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;

/**
 * A place in the tree of the keys breaker binds under {@code breaker.*}, read off its
 * {@code @ConfigurationProperties} classes (Java bean properties, nested groups and
 * maps): named children, or a map whose values have children, or a value.
 */
final class KeyNode {

	/** By uniform name (lower case, no dashes): the dashed name and the node. */
	final Map<String, Child> children = new TreeMap<>();

	/** For a map of groups ({@code instances}): any key, then this. */
	KeyNode mapValues;

	/**
	 * For a value: how it is listed after its name ({@code ""}, or {@code ".<key>"} for a
	 * map of values).
	 */
	String valueSuffix;

	record Child(String name, KeyNode node) {

	}

	/**
	 * A valid key below a node: its path from the node, how it is listed, its length in
	 * elements, and whether a map key and the key's settings follow it.
	 */
	record Candidate(String path, String listed, int elements, boolean map) {

	}

	/**
	 * The root ({@code breaker}) of the keys of {@code roots}.
	 * @param roots each {@code @ConfigurationProperties} class by its prefix,
	 * {@code breaker} or below it
	 */
	static KeyNode root(Map<String, Class<?>> roots) {
		KeyNode root = new KeyNode();
		roots.forEach((prefix, type) -> {
			ConfigurationPropertyName name = ConfigurationPropertyName.of(prefix);
			KeyNode node = root;
			for (int i = 1; i < name.getNumberOfElements(); i++) {
				String element = name.getElement(i, Form.DASHED);
				node = node.children.computeIfAbsent(uniform(element), (key) -> new Child(element, new KeyNode()))
					.node();
			}
			addProperties(node, type);
		});
		return root;
	}

	/** The child named {@code element} in any form, or {@code null}. */
	Child child(String element) {
		return this.children.get(uniform(element));
	}

	/** Whether the elements of {@code name} from {@code from} form a valid key here. */
	boolean valid(ConfigurationPropertyName name, int from) {
		KeyNode node = this;
		int count = name.getNumberOfElements();
		for (int i = from; i < count; i++) {
			if (node.valueSuffix != null) {
				return !node.valueSuffix.isEmpty() && i == count - 1;
			}
			if (node.mapValues != null) {
				node = node.mapValues;
				continue;
			}
			Child child = node.child(name.getElement(i, Form.UNIFORM));
			if (child == null) {
				return false;
			}
			node = child.node();
		}
		return node.valueSuffix != null && node.valueSuffix.isEmpty();
	}

	/** Every valid key below this node, down to the values and maps. */
	List<Candidate> candidates() {
		List<Candidate> candidates = new ArrayList<>();
		collect(this, "", candidates);
		return candidates;
	}

	/** The keys below this node as a user is shown them, sorted. */
	List<String> listed() {
		return candidates().stream().map(Candidate::listed).sorted().toList();
	}

	private static void collect(KeyNode node, String prefix, List<Candidate> out) {
		for (Child child : node.children.values()) {
			String path = prefix + child.name();
			int elements = path.split("\\.").length;
			if (child.node().valueSuffix != null) {
				out.add(new Candidate(path, path + child.node().valueSuffix, elements,
						!child.node().valueSuffix.isEmpty()));
			}
			else if (child.node().mapValues != null) {
				out.add(new Candidate(path, path + ".<key>.…", elements, true));
			}
			else {
				collect(child.node(), path + ".", out);
			}
		}
	}

	private static void addProperties(KeyNode node, Class<?> type) {
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
			if (property.getReadMethod() == null || "class".equals(property.getName())) {
				continue;
			}
			ResolvableType propertyType = ResolvableType.forMethodReturnType(property.getReadMethod(), type);
			if (property.getWriteMethod() == null && !isGroup(propertyType.resolve())) {
				continue;
			}
			String name = DataObjectPropertyName.toDashedForm(property.getName());
			node.children.put(uniform(name), new Child(name, nodeOf(propertyType)));
		}
	}

	private static KeyNode nodeOf(ResolvableType type) {
		Class<?> resolved = type.resolve(Object.class);
		KeyNode node = new KeyNode();
		if (Map.class.isAssignableFrom(resolved)) {
			Class<?> values = type.asMap().getGeneric(1).resolve(Object.class);
			if (isGroup(values)) {
				node.mapValues = new KeyNode();
				addProperties(node.mapValues, values);
			}
			else {
				node.valueSuffix = ".<key>";
			}
		}
		else if (isGroup(resolved)) {
			addProperties(node, resolved);
		}
		else {
			node.valueSuffix = "";
		}
		return node;
	}

	/**
	 * A group of settings: one of breaker's own classes that is not an enum (collections
	 * and values are not).
	 */
	private static boolean isGroup(Class<?> type) {
		return type != null && !type.isEnum() && !type.isInterface() && !type.isArray()
				&& !Collection.class.isAssignableFrom(type) && type.getName().startsWith("dev.breaker.");
	}

	/**
	 * A key element or an enum value in uniform form, as Spring Boot compares them: its
	 * letters and digits, lower case.
	 */
	static String uniform(String element) {
		StringBuilder out = new StringBuilder(element.length());
		element.chars()
			.filter(Character::isLetterOrDigit)
			.map(Character::toLowerCase)
			.forEach((c) -> out.append((char) c));
		return out.toString();
	}

}
