package dev.breaker.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The samples of one Prometheus text-format scrape. */
final class Scrape {

	private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");

	private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

	private final List<Sample> samples;

	private Scrape(List<Sample> samples) {
		this.samples = samples;
	}

	static Scrape parse(String text) {
		List<Sample> samples = new ArrayList<>();
		for (String line : text.split("\n")) {
			if (line.isBlank() || line.startsWith("#")) {
				continue;
			}
			Matcher sample = SAMPLE.matcher(line.trim());
			if (!sample.matches()) {
				throw new IllegalArgumentException("Not a Prometheus sample: " + line);
			}
			Map<String, String> labels = new LinkedHashMap<>();
			if (sample.group(2) != null) {
				Matcher label = LABEL.matcher(sample.group(2));
				while (label.find()) {
					labels.put(label.group(1), label.group(2));
				}
			}
			samples.add(new Sample(sample.group(1), labels, Double.parseDouble(sample.group(3))));
		}
		return new Scrape(samples);
	}

	/** Every sample name in the scrape ({@code breaker_open_seconds_bucket}, ...). */
	Set<String> names() {
		return this.samples.stream().map(Sample::name).collect(Collectors.toSet());
	}

	/** Every value the label {@code label} has in the scrape, of any sample. */
	Set<String> labelValues(String label) {
		return this.samples.stream()
			.map((sample) -> sample.labels().get(label))
			.filter((value) -> value != null)
			.collect(Collectors.toSet());
	}

	/** How many samples the scrape has whose name starts with {@code prefix}. */
	int size(String prefix) {
		return (int) this.samples.stream().filter((sample) -> sample.name().startsWith(prefix)).count();
	}

	/**
	 * The value of the one sample with this name whose labels include the given ones.
	 * @param name the sample name
	 * @param labels label name, value, name, value...
	 * @return the value, or empty when no sample matches
	 */
	OptionalDouble value(String name, String... labels) {
		List<Sample> matching = this.samples.stream()
			.filter((sample) -> sample.name().equals(name) && sample.has(labels))
			.toList();
		if (matching.size() > 1) {
			throw new IllegalArgumentException("More than one sample matches " + name + " " + List.of(labels));
		}
		return matching.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(matching.get(0).value());
	}

	record Sample(String name, Map<String, String> labels, double value) {

		boolean has(String... pairs) {
			for (int i = 0; i < pairs.length; i += 2) {
				if (!pairs[i + 1].equals(this.labels.get(pairs[i]))) {
					return false;
				}
			}
			return true;
		}

	}

}
