package dev.breaker.autoconfigure;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.breaker.autoconfigure.KeyNode.Candidate;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;

/**
 * The keys breaker accepts under {@code breaker.*} (a tree of {@link KeyNode}s read off
 * its {@code @ConfigurationProperties} classes), and the one closest to a key it does not
 * know: what a "did you mean" names.
 */
final class BreakerPropertyKeys {

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

	private final KeyNode root;

	/**
	 * @param roots each {@code @ConfigurationProperties} class by its prefix,
	 * {@code breaker} or below it
	 */
	BreakerPropertyKeys(Map<String, Class<?>> roots) {
		this.root = KeyNode.root(roots);
	}

	/**
	 * The suggestion for {@code unknown}, a name under {@code breaker} that no properties
	 * class binds.
	 */
	Suggestion suggest(ConfigurationPropertyName unknown) {
		int count = unknown.getNumberOfElements();
		KeyNode node = this.root;
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
			KeyNode.Child child = node.child(unknown.getElement(i, Form.UNIFORM));
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
	private Suggestion bracketed(ConfigurationPropertyName unknown, int key, KeyNode values) {
		int count = unknown.getNumberOfElements();
		if (indexed(unknown, key) || values.valid(unknown, key + 1)) {
			return null;
		}
		for (int last = key + 1; last < count - 1; last++) {
			if (values.valid(unknown, last + 1)) {
				StringBuilder mapKey = new StringBuilder();
				for (int e = key; e <= last; e++) {
					mapKey.append((e > key) ? "." : "").append(unknown.getElement(e, Form.ORIGINAL));
				}
				String parent = written(unknown, key) + "[" + mapKey + "]";
				String meant = rest(unknown, last + 1);
				return new Suggestion(parent, meant, parent + "." + meant, values.listed());
			}
		}
		return null;
	}

	private Suggestion nearest(ConfigurationPropertyName unknown, int from, KeyNode node) {
		List<Candidate> candidates = node.candidates();
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
		return new Suggestion(parent, meant, parent + "." + meant, node.listed());
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
			typed.append((e > from) ? "." : "").append(KeyNode.uniform(unknown.getElement(e, Form.UNIFORM)));
		}
		StringBuilder valid = new StringBuilder();
		for (String element : candidate.path().split("\\.")) {
			valid.append(valid.isEmpty() ? "" : ".").append(KeyNode.uniform(element));
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

}
