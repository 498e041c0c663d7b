package io.quotient.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What the browser tests do besides looking at the page: deploy and read through the service's REST API, wait
 * until the page (updated by its own polling) shows something, and keep a screenshot of a failure.
 */
final class DashboardPage {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChromiumBrowser browser;
    private final String base;

    DashboardPage(ChromiumBrowser browser, int port) {
        this.browser = browser;
        this.base = "http://localhost:" + port;
    }

    String base() {
        return base;
    }

    /** Submits a job (the REST body as given) and checks the answer's status. */
    void deploy(String team, String body, int expected) throws IOException, InterruptedException {
        HttpResponse<String> answer = HTTP.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/teams/" + team + "/jobs"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(expected);
    }

    /** A GET of the API that must answer 200, as JSON. */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> answer = HTTP.send(
                HttpRequest.newBuilder(URI.create(base + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return JSON.readTree(answer.body());
    }

    /** Waits until the condition holds on the page (failures of a read meanwhile count as "not yet"). */
    void await(String what, Duration timeout, Function<WebDriver, Boolean> condition) {
        new WebDriverWait(browser.driver(), timeout)
                .withMessage("the page never showed " + what)
                .ignoring(RuntimeException.class)
                .until(condition::apply);
    }

    /** For an {@code AfterTestExecutionCallback}: a failed test leaves {@code target/dashboard-failure-*.png}. */
    static void screenshotOnFailure(ChromiumBrowser browser, ExtensionContext context) throws IOException {
        if (context.getExecutionException().isPresent() && browser != null) {
            browser.screenshot(Path.of("target/dashboard-failure-"
                    + context.getRequiredTestMethod().getName() + ".png"));
        }
    }
}
