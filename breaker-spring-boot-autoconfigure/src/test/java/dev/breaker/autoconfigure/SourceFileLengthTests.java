package dev.breaker.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No production source file grows past {@value #LIMIT} lines without a reason a reader
 * can see: each such file has a row in the table "Files over 300 lines" of
 * {@code CONTRIBUTING.md}, and each row names a file that exists and is still that long.
 */
class SourceFileLengthTests {

	static final int LIMIT = 300;

	private static final Path ROOT = Path.of("..");

	private static final String SECTION = "## Files over 300 lines";

	private static final Pattern ROW = Pattern.compile("^\\| `([^`]+\\.java)` \\|");

	@Test
	void everyProductionFileOverTheLimitHasItsReasonInContributing() throws IOException {
		assertThat(unexplained(ROOT)).as("files over %d lines without a row in CONTRIBUTING.md", LIMIT).isEmpty();
	}

	@Test
	void everyFileContributingExplainsIsStillOverTheLimit() throws IOException {
		assertThat(stale(ROOT)).as("rows of CONTRIBUTING.md naming a missing file or one within %d lines", LIMIT)
			.isEmpty();
	}

	@Test
	void findsALongFileWithoutARowAndARowWithoutALongFile(@TempDir Path dir) throws IOException {
		Path main = Files.createDirectories(dir.resolve("module/src/main/java/a"));
		Path tests = Files.createDirectories(dir.resolve("module/src/test/java/a"));
		Files.writeString(main.resolve("Long.java"), "//\n".repeat(LIMIT + 1));
		Files.writeString(main.resolve("Explained.java"), "//\n".repeat(LIMIT + 1));
		Files.writeString(main.resolve("Short.java"), "//\n".repeat(LIMIT));
		Files.writeString(tests.resolve("LongTests.java"), "//\n".repeat(LIMIT + 1));
		Files.writeString(dir.resolve("CONTRIBUTING.md"), """
				# Contributing

				%s

				| File | Why |
				| --- | --- |
				| `module/src/main/java/a/Explained.java` | one protocol |
				| `module/src/main/java/a/Short.java` | it was long once |
				| `module/src/main/java/a/Gone.java` | it was here once |

				## Next section

				| `module/src/main/java/a/Long.java` | not in the section |
				""".formatted(SECTION));
		assertThat(unexplained(dir)).containsExactly("module/src/main/java/a/Long.java");
		assertThat(stale(dir)).containsExactly("module/src/main/java/a/Gone.java", "module/src/main/java/a/Short.java");
	}

	/** Production files over the limit that the table does not name. */
	static Set<String> unexplained(Path root) throws IOException {
		Set<String> files = longFiles(root);
		files.removeAll(explained(root));
		return files;
	}

	/** Files the table names that are missing or within the limit. */
	static Set<String> stale(Path root) throws IOException {
		Set<String> rows = explained(root);
		rows.removeAll(longFiles(root));
		return rows;
	}

	private static Set<String> longFiles(Path root) throws IOException {
		Set<String> files = new TreeSet<>();
		try (Stream<Path> paths = Files.walk(root)) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				String name = root.relativize(path).toString().replace('\\', '/');
				if (name.contains("/src/main/java/") && !name.contains("/target/") && name.endsWith(".java")
						&& lines(path) > LIMIT) {
					files.add(name);
				}
			}
		}
		return files;
	}

	private static long lines(Path file) throws IOException {
		try (Stream<String> lines = Files.lines(file)) {
			return lines.count();
		}
	}

	private static Set<String> explained(Path root) throws IOException {
		List<String> lines = Files.readAllLines(root.resolve("CONTRIBUTING.md"));
		Set<String> rows = new TreeSet<>();
		boolean inSection = false;
		for (String line : lines) {
			if (line.startsWith("## ")) {
				inSection = line.equals(SECTION);
				continue;
			}
			Matcher row = ROW.matcher(line);
			if (inSection && row.find()) {
				rows.add(row.group(1));
			}
		}
		return rows;
	}

}
