package dev.breaker.sample;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The live page in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, which {@code .ci/run} installs when they are missing).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
class LivePageBrowserTests extends RunningCheckout {

	private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

	private static final File CHROMIUM = new File("/usr/bin/chromium");

	private Path profile;

	private WebDriver browser;

	@BeforeEach
	void openBrowser() throws IOException {
		// CI installs Chromium (.ci/run), so there a missing browser fails the test
		// instead of skipping it.
		boolean browser = CHROMEDRIVER.canExecute() && CHROMIUM.canExecute();
		String missing = "needs Debian's chromium and chromium-driver: apt-get install chromium chromium-driver";
		if ("true".equals(System.getenv("CI"))) {
			assertThat(browser).as(missing).isTrue();
		}
		assumeTrue(browser, missing);
		this.profile = Files.createTempDirectory("live-page-chromium");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM);
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
				"--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,1000",
				"--user-data-dir=" + this.profile);
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER)
			.usingAnyFreePort()
			.build();
		this.browser = new ChromeDriver(service, options);
	}

	@AfterEach
	void closeBrowser() {
		if (this.browser != null) {
			this.browser.quit();
		}
		if (this.profile != null) {
			FileSystemUtils.deleteRecursively(this.profile.toFile());
		}
	}

	@Test
	void pageShowsTheBreakersAndOneTurningOpenAfterAChaosButtonIsClicked() {
		this.browser.get("http://127.0.0.1:" + this.port + "/");
		assertThat(this.browser.getTitle()).contains("checkout");
		// The page redraws its cards every second: each check looks the element up anew.
		WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(20), Duration.ofMillis(100));
		wait.ignoring(StaleElementReferenceException.class);

		// The page's own traffic makes the first calls, which create the breakers.
		wait.until(ExpectedConditions.textToBe(By.cssSelector(".breaker[data-name='payments'] .state"), "CLOSED"));
		wait.until(
				ExpectedConditions.presenceOfElementLocated(By.cssSelector(".breaker[data-name='recommendations']")));

		click(wait, "button[data-dependency='payments'][data-mode='wedged']");
		wait.until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector("button.active[data-dependency='payments'][data-mode='wedged']")));

		wait.until(ExpectedConditions.textToBe(By.cssSelector(".breaker[data-name='payments'] .state"), "OPEN"));
		wait.until(ExpectedConditions.textToBePresentInElementLocated(
				By.cssSelector(".breaker[data-name='payments'] .transitions"), "CLOSED → OPEN"));

		click(wait, "button[data-dependency='payments'][data-mode='healthy']");
	}

	/**
	 * Clicks the element, looked up again if the page redrew it (every second) between
	 * lookup and click.
	 */
	private static void click(WebDriverWait wait, String css) {
		wait.until((driver) -> {
			driver.findElement(By.cssSelector(css)).click();
			return true;
		});
	}

	@Test
	void sparklinesDrawTheLastSecondsAndAWedgeShowsAsAChangeOfTheStateBandThatAReloadKeeps() {
		this.browser.get("http://127.0.0.1:" + this.port + "/");
		WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(30), Duration.ofMillis(100));
		wait.ignoring(StaleElementReferenceException.class);
		String payments = ".breaker[data-name='payments'] ";

		// the page's traffic gives payments seconds of history: calls/s and latency draw
		wait.until((
				driver) -> points(driver.findElements(By.cssSelector(payments + "svg.sparkline.calls polyline"))) >= 3);
		wait.until((driver) -> points(
				driver.findElements(By.cssSelector(payments + "svg.sparkline.latency polyline.p50"))) >= 2);
		assertThat(this.browser.findElements(By.cssSelector(payments + "svg.circle circle"))).hasSize(1);
		assertThat(this.browser.findElement(By.cssSelector(payments + ".spark.latency .value")).getText())
			.contains("ms");

		Instant wedged = Instant.now().minusSeconds(1);
		click(wait, "button[data-dependency='payments'][data-mode='wedged']");
		wait.until((driver) -> openAfter(driver.findElements(By.cssSelector(payments + "svg.band rect")), wedged));
		click(wait, "button[data-dependency='payments'][data-mode='healthy']");

		this.browser.navigate().refresh();
		wait.until((driver) -> openAfter(driver.findElements(By.cssSelector(payments + "svg.band rect")), wedged));
	}

	/** The points of the longest of these polylines. */
	private static int points(List<WebElement> polylines) {
		int most = 0;
		for (WebElement line : polylines) {
			String points = line.getAttribute("points");
			most = Math.max(most, (points == null || points.isBlank()) ? 0 : points.trim().split("\\s+").length);
		}
		return most;
	}

	/**
	 * Whether the band shows a CLOSED stretch followed by an OPEN one that ended after
	 * {@code since}.
	 */
	private static boolean openAfter(List<WebElement> rects, Instant since) {
		boolean closed = false;
		for (WebElement rect : rects) {
			String state = rect.getAttribute("data-state");
			if ("CLOSED".equals(state)) {
				closed = true;
			}
			else if ("OPEN".equals(state) && closed && !Instant.parse(rect.getAttribute("data-to")).isBefore(since)) {
				return true;
			}
		}
		return false;
	}

}
