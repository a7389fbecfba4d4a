package dev.breaker.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README opens with its two commands, and CI ({@code .ci/run}) runs the README's test
 * command as it is written there.
 */
class ReadmeCommandsTests {

	private static final Path ROOT = Path.of("..");

	@Test
	void theReadmeOpensWithTheSampleAppAndTheTests() throws IOException {
		assertThat(firstBlock()).hasSize(2)
			.satisfiesExactly((sample) -> assertThat(sample).contains("java -jar sample-app/target/")
				.endsWith("http://localhost:8080/"), (tests) -> assertThat(tests).endsWith("# run the tests"));
	}

	@Test
	void ciRunsTheReadmesTestCommand() throws IOException {
		String tests = firstBlock().get(1);
		String command = tests.substring(0, tests.indexOf('#')).strip();

		assertThat(command).isEqualTo("mvn -B verify");
		assertThat(Files.readString(ROOT.resolve(".ci/run")).lines().map(String::strip))
			.as(".ci/run runs the README's test command '%s' as written", command)
			.contains(command);
	}

	/**
	 * The lines of the README's first code block, which must come before any other text
	 * but the title.
	 */
	private static List<String> firstBlock() throws IOException {
		List<String> lines = Files.readString(ROOT.resolve("README.md")).lines().toList();
		assertThat(lines.get(0)).startsWith("# ");
		int open = lines.indexOf("```bash");
		assertThat(lines.subList(1, open)).allSatisfy((line) -> assertThat(line).isBlank());
		int close = lines.subList(open + 1, lines.size()).indexOf("```") + open + 1;
		return lines.subList(open + 1, close);
	}

}
