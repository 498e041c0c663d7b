package io.quotient.app.dashboard;

import io.quotient.testing.DebianTools;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven through Debian's ChromeDriver: installed with apt-get by
 * {@code src/test/bin/install-chromium} when missing, and never a driver or browser downloaded by Selenium.
 */
final class ChromiumBrowser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path INSTALL_SCRIPT = Path.of("src/test/bin/install-chromium");

    private final Path profile;
    private final ChromeDriver driver;

    private ChromiumBrowser(Path profile, ChromeDriver driver) {
        this.profile = profile;
        this.driver = driver;
    }

    /** Installs Chromium if needed and starts it headless with a fresh profile and a window of this size. */
    static ChromiumBrowser start(int width, int height) throws IOException, InterruptedException {
        DebianTools.ensure(INSTALL_SCRIPT, "chromium chromium-driver", CHROMIUM, CHROMEDRIVER);
        Path profile = Files.createTempDirectory("quotient-chromium-");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        // as root Chromium needs --no-sandbox; the network flags keep it from calling out of this closed machine
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile,
                "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromiumBrowser(profile, new ChromeDriver(service, options));
    }

    ChromeDriver driver() {
        return driver;
    }

    /** Writes a PNG of the page as it is now (creating the folder). */
    void screenshot(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        File png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), file, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
