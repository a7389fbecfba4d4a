package dev.breaker.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;

/**
 * The keys breaker accepts under {@code breaker.*}, read off its
 * {@code @ConfigurationProperties} classes (Java bean properties, nested groups and
 * maps), and the one closest to a key it does not know: what a "did you mean" names.
 */
final class BreakerPropertyKeys {

	/**
	 * A place in the tree of keys: named children, or a map whose values have children,
	 * or a value.
	 */
	private static final class Node {

		/** By uniform name (lower case, no dashes): the dashed name and the node. */
		final Map<String, Child> children = new TreeMap<>();

		/** For a map of groups ({@code instances}): any key, then this. */
		Node mapValues;

		/**
		 * For a value: how it is listed after its name ({@code ""}, or {@code ".<key>"}
		 * for a map of values).
		 */
		String valueSuffix;

	}

	private record Child(String name, Node node) {

	}

	/**
	 * A valid key near a key that is not: the candidate's path from the node, how it is
	 * listed, its length in elements.
	 */
	private record Candidate(String path, String listed, int elements, boolean map) {

	}

	/**
	 * What breaker can say about a key it does not know.
	 *
	 * @param parent where the unknown element was met, as written
	 * ({@code breaker.instances.payments})
	 * @param meant the closest valid key from there ({@code open-wait})
	 * @param closest the closest valid key in full
	 * ({@code breaker.instances.payments.open-wait})
	 * @param keys the keys under {@code parent}, as listed to the user, sorted
	 */
	record Suggestion(String parent, String meant, String closest, List<String> keys) {

	}

	private final Node root = new Node();

	/**
	 * @param roots each {@code @ConfigurationProperties} class by its prefix,
	 * {@code breaker} or below it
	 */
	BreakerPropertyKeys(Map<String, Class<?>> roots) {
		roots.forEach((prefix, type) -> {
			ConfigurationPropertyName name = ConfigurationPropertyName.of(prefix);
			Node node = this.root;
			for (int i = 1; i < name.getNumberOfElements(); i++) {
				String element = name.getElement(i, Form.DASHED);
				node = node.children.computeIfAbsent(uniform(element), (key) -> new Child(element, new Node())).node();
			}
			addProperties(node, type);
		});
	}

	/**
	 * The suggestion for {@code unknown}, a name under {@code breaker} that no properties
	 * class binds.
	 */
	Suggestion suggest(ConfigurationPropertyName unknown) {
		int count = unknown.getNumberOfElements();
		Node node = this.root;
		int i = 1;
		while (i < count) {
			if (node.mapValues != null) {
				Suggestion bracketed = bracketed(unknown, i, node.mapValues);
				if (bracketed != null) {
					return bracketed;
				}
				node = node.mapValues;
				i++;
				continue;
			}
			Child child = node.children.get(uniform(unknown.getElement(i, Form.UNIFORM)));
			if (child == null || child.node().valueSuffix != null) {
				break;
			}
			node = child.node();
			i++;
		}
		return nearest(unknown, i, node);
	}

	/**
	 * A map key with dots written without brackets
	 * ({@code instances.stock.acme.com.open-wait}) binds {@code stock} as the key: when
	 * some longer key leaves a valid rest, suggest it in brackets.
	 */
	private Suggestion bracketed(ConfigurationPropertyName unknown, int key, Node values) {
		int count = unknown.getNumberOfElements();
		if (indexed(unknown, key) || valid(values, unknown, key + 1)) {
			return null;
		}
		for (int last = key + 1; last < count - 1; last++) {
			if (valid(values, unknown, last + 1)) {
				StringBuilder mapKey = new StringBuilder();
				for (int e = key; e <= last; e++) {
					mapKey.append((e > key) ? "." : "").append(unknown.getElement(e, Form.ORIGINAL));
				}
				String parent = written(unknown, key) + "[" + mapKey + "]";
				String meant = rest(unknown, last + 1);
				return new Suggestion(parent, meant, parent + "." + meant, listed(values));
			}
		}
		return null;
	}

	private Suggestion nearest(ConfigurationPropertyName unknown, int from, Node node) {
		List<Candidate> candidates = new ArrayList<>();
		collect(node, "", candidates);
		String parent = written(unknown, from);
		if (candidates.isEmpty()) {
			return new Suggestion(parent, "", parent, List.of());
		}
		Candidate best = candidates.stream()
			.min(Comparator.comparingInt((Candidate c) -> distance(unknown, from, c))
				.thenComparingInt((c) -> c.path().length())
				.thenComparing(Candidate::path))
			.orElseThrow();
		String meant = best.path();
		if (best.map() && from + best.elements() < unknown.getNumberOfElements()) {
			meant += "." + rest(unknown, from + best.elements());
		}
		return new Suggestion(parent, meant, parent + "." + meant, listed(node));
	}

	/**
	 * How far the elements from {@code from} are from a candidate: the optimal string
	 * alignment distance of their uniform forms (a transposed pair of letters is one
	 * step). A map candidate is compared with as many elements as it has, since its key
	 * and the key's settings follow.
	 */
	private static int distance(ConfigurationPropertyName unknown, int from, Candidate candidate) {
		int to = candidate.map() ? Math.min(unknown.getNumberOfElements(), from + candidate.elements())
				: unknown.getNumberOfElements();
		StringBuilder typed = new StringBuilder();
		for (int e = from; e < to; e++) {
			typed.append((e > from) ? "." : "").append(uniform(unknown.getElement(e, Form.UNIFORM)));
		}
		StringBuilder valid = new StringBuilder();
		for (String element : candidate.path().split("\\.")) {
			valid.append(valid.isEmpty() ? "" : ".").append(uniform(element));
		}
		return alignment(typed.toString(), valid.toString());
	}

	private static int alignment(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}

	/** Whether the elements from {@code from} form a valid key under {@code node}. */
	private static boolean valid(Node node, ConfigurationPropertyName name, int from) {
		int count = name.getNumberOfElements();
		for (int i = from; i < count; i++) {
			if (node.valueSuffix != null) {
				return !node.valueSuffix.isEmpty() && i == count - 1;
			}
			if (node.mapValues != null) {
				node = node.mapValues;
				continue;
			}
			Child child = node.children.get(uniform(name.getElement(i, Form.UNIFORM)));
			if (child == null) {
				return false;
			}
			node = child.node();
		}
		return node.valueSuffix != null && node.valueSuffix.isEmpty();
	}

	private static void collect(Node node, String prefix, List<Candidate> out) {
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

	private static List<String> listed(Node node) {
		List<Candidate> candidates = new ArrayList<>();
		collect(node, "", candidates);
		return candidates.stream().map(Candidate::listed).sorted().toList();
	}

	/**
	 * The first {@code count} elements as the user wrote them, map keys in brackets where
	 * they were.
	 */
	private static String written(ConfigurationPropertyName name, int count) {
		StringBuilder out = new StringBuilder();
		for (int i = 0; i < count; i++) {
			String element = name.getElement(i, Form.ORIGINAL);
			if (indexed(name, i)) {
				out.append('[').append(element).append(']');
			}
			else {
				out.append((i > 0) ? "." : "").append(element);
			}
		}
		return out.toString();
	}

	/** The elements from {@code from} as written, without the leading dot. */
	private static String rest(ConfigurationPropertyName name, int from) {
		String all = written(name, name.getNumberOfElements());
		String head = written(name, from);
		String rest = all.substring(head.length());
		return rest.startsWith(".") ? rest.substring(1) : rest;
	}

	private static boolean indexed(ConfigurationPropertyName name, int element) {
		return name.chop(element + 1).isLastElementIndexed();
	}

	/** {@code name} as the user wrote it. */
	static String written(ConfigurationPropertyName name) {
		return written(name, name.getNumberOfElements());
	}

	private static void addProperties(Node node, Class<?> type) {
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

	private static Node nodeOf(ResolvableType type) {
		Class<?> resolved = type.resolve(Object.class);
		Node node = new Node();
		if (Map.class.isAssignableFrom(resolved)) {
			Class<?> values = type.asMap().getGeneric(1).resolve(Object.class);
			if (isGroup(values)) {
				node.mapValues = new Node();
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

	private static String uniform(String element) {
		StringBuilder out = new StringBuilder(element.length());
		element.chars()
			.filter(Character::isLetterOrDigit)
			.map(Character::toLowerCase)
			.forEach((c) -> out.append((char) c));
		return out.toString();
	}

}
