package dev.breaker.autoconfigure;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the user documentation resolves: the file or directory it names
 * exists, and its {@code #anchor}, if any, is the GitHub anchor of a heading of the
 * Markdown file it points to. Links inside code (fenced blocks and {@code `spans`}) are
 * not links; links with a scheme ({@code https:}, {@code mailto:}) are left to the
 * reader.
 */
class DocumentationLinksTests {

	private static final Path ROOT = Path.of("..");

	/**
	 * The user documentation: the README, what it moved into, and the pages beside the
	 * modules.
	 */
	static List<Path> documents() throws IOException {
		List<Path> documents = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CONTRIBUTING.md"),
				Path.of("sample-app", "README.md"), Path.of("benchmarks", "README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md"))
				.sorted()
				.forEach((path) -> documents.add(ROOT.relativize(path)));
		}
		return documents;
	}

	@Test
	void theDocumentationIsWhereTheReadmeSaysItIs() throws IOException {
		assertThat(documents()).extracting(Path::toString)
			.contains("docs/configuration.md", "docs/fallbacks-retries-async.md", "docs/http-clients.md",
					"docs/observability.md", "docs/fleet-mode.md", "docs/engine.md",
					"docs/migrating-from-resilience4j.md")
			.allSatisfy((document) -> assertThat(ROOT.resolve(document)).isRegularFile());
	}

	@ParameterizedTest
	@MethodSource("documents")
	void everyRelativeLinkResolves(Path document) throws IOException {
		assertThat(brokenLinks(ROOT, document)).as(document.toString()).isEmpty();
	}

	@Test
	void reportsAMissingFileAMissingAnchorAndAMissingHeadingOfItsOwn(@TempDir Path dir) throws IOException {
		Files.createDirectories(dir.resolve("docs"));
		Files.writeString(dir.resolve("docs/other.md"), "# Other\n\n## A `code` heading: yes\n");
		Files.writeString(dir.resolve("README.md"), """
				# Title

				[fine](docs/other.md#a-code-heading-yes) [fine too](docs/) [own](#title) [web](https://example.com/x)
				[gone](docs/missing.md) and ![image](docs/missing.png)
				[no such heading](docs/other.md#a-heading) [nor here](#nowhere)
				`[in code](nowhere.md)`

				```
				[in a block](nowhere.md)
				```
				""");

		assertThat(brokenLinks(dir, Path.of("README.md"))).containsExactly(
				"README.md:4: docs/missing.md (no such file)", "README.md:4: docs/missing.png (no such file)",
				"README.md:5: docs/other.md#a-heading (no such heading in docs/other.md)",
				"README.md:5: #nowhere (no such heading in README.md)");
	}

	@Test
	void anchorsAreGitHubsSlugsOfTheHeadings() {
		assertThat(anchors("""
				## `@CircuitGuarded` and fallbacks
				## See it: `/actuator/breakers`, history, health
				### Trip rules (any one trips; a threshold of 0 turns a rule off)
				## Retries
				### Retries
				#### Closed path (acquire + record a success), 1 thread
				## What [links](x.md) and **bold** become
				```
				# not a heading: inside a code block
				```
				""")).containsExactly("circuitguarded-and-fallbacks", "see-it-actuatorbreakers-history-health",
				"trip-rules-any-one-trips-a-threshold-of-0-turns-a-rule-off", "retries", "retries-1",
				"closed-path-acquire--record-a-success-1-thread", "what-links-and-bold-become");
	}

	private static final Pattern LINK = Pattern
		.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

	private static final Pattern CODE_SPAN = Pattern.compile("(`+).*?\\1");

	private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");

	private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

	/**
	 * Each broken relative link of {@code document} (relative to {@code root}), as
	 * {@code file:line: target (why)}.
	 */
	static List<String> brokenLinks(Path root, Path document) throws IOException {
		List<String> broken = new ArrayList<>();
		Map<Path, Set<String>> anchorsByFile = new HashMap<>();
		List<String> lines = Files.readString(root.resolve(document)).lines().toList();
		boolean fenced = false;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (line.strip().startsWith("```")) {
				fenced = !fenced;
				continue;
			}
			if (fenced) {
				continue;
			}
			Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
			while (link.find()) {
				String target = link.group(1);
				if (SCHEME.matcher(target).find()) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = URLDecoder.decode((hash < 0) ? target : target.substring(0, hash),
						StandardCharsets.UTF_8);
				String anchor = (hash < 0) ? null
						: URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
				Path resolved = file.isEmpty() ? root.resolve(document)
						: root.resolve(document).getParent().resolve(file).normalize();
				String where = document + ":" + (i + 1) + ": " + target;
				if (!Files.exists(resolved)) {
					broken.add(where + " (no such file)");
				}
				else if (anchor != null && !anchorsByFile.computeIfAbsent(resolved, DocumentationLinksTests::anchorsOf)
					.contains(anchor)) {
					broken.add(where + " (no such heading in " + root.relativize(resolved) + ")");
				}
			}
		}
		return broken;
	}

	private static Set<String> anchorsOf(Path file) {
		try {
			return Files.isRegularFile(file) ? anchors(Files.readString(file)) : Set.of();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The anchors GitHub gives the headings of a Markdown text: the heading's text as
	 * rendered (code, emphasis and link syntax dropped), lower-cased, without punctuation
	 * other than {@code -} and {@code _}, spaces turned into {@code -}; a repeated anchor
	 * gets {@code -1}, {@code -2}, and so on.
	 */
	static Set<String> anchors(String markdown) {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean fenced = false;
		for (String line : markdown.lines().toList()) {
			if (line.strip().startsWith("```")) {
				fenced = !fenced;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (fenced || !heading.matches()) {
				continue;
			}
			String text = heading.group(2)
				.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
				.replace("`", "")
				.replace("*", "");
			StringBuilder slug = new StringBuilder();
			text.toLowerCase(Locale.ROOT).codePoints().forEach((c) -> {
				if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
					slug.appendCodePoint(c);
				}
				else if (c == ' ') {
					slug.append('-');
				}
			});
			int repeats = seen.merge(slug.toString(), 1, Integer::sum) - 1;
			anchors.add((repeats == 0) ? slug.toString() : slug + "-" + repeats);
		}
		return anchors;
	}

}
