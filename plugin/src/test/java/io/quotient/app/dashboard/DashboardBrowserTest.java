package io.quotient.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.app.QuotientApplication;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The dashboard in Debian's headless Chromium while the README's three problems are played through REST on the
 * embedded 4 × 10-GPU cluster: after each step the page, updated by its own polling (no reload), must show the
 * teams' bars, the GPU map's cells and the pending reasons the service decided. A failed test leaves a screenshot
 * in {@code target/dashboard-failure-*.png}; the final state is written to {@code target/dashboard.png} and, when
 * {@code -Ddashboard.screenshot=PATH} is given, to PATH (how README's docs/dashboard.png is made).
 */
@SpringBootTest(
        classes = {QuotientApplication.class, DashboardBrowserTest.TokenCheck.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "quotient.cluster.mode=embedded")
class DashboardBrowserTest {

    private static final Duration PAGE_UPDATE = Duration.ofSeconds(15);
    /** The usage accounting observes, and the panel reads it, every 10 s. */
    private static final Duration USAGE_UPDATE = Duration.ofSeconds(40);

    private static final String REFUSED_TOKEN = "refused-token";
    private static final AtomicReference<String> lastAuthorization = new AtomicReference<>();
    private static ChromiumBrowser browser;

    @RegisterExtension
    final AfterTestExecutionCallback screenshotOnFailure = c -> DashboardPage.screenshotOnFailure(browser, c);

    @LocalServerPort
    private int port;

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = ChromiumBrowser.start(1400, 1000);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void theThreeProblemsShowOnThePageAsTheyHappen() throws Exception {
        WebDriver page = browser.driver();
        page.get(service().base() + "/");
        await("the empty cluster", d -> cells().size() == 40 && team("team-a") != null);
        assertThat(page.findElements(By.cssSelector(".gpu.idle"))).hasSize(40);
        assertThat(page.findElement(By.cssSelector("#pending tbody")).getText()).contains("nothing waits");
        assertThat(page.findElement(By.cssSelector(".team[data-team='team-a'] .fairness"))
                        .getText())
                .as("the fair-share column at half-life 0")
                .isEqualTo("fair share: instantaneous");

        // 1. fragmentation: six 3-GPU jobs packed onto two nodes, so team-b's 8-GPU job finds a whole node
        for (int i = 1; i <= 6; i++) {
            service()
                    .deploy(
                            "team-a",
                            "{\"name\": \"a-" + i + "\", \"gpu\": {\"count\": 3}, \"preemptible\": true}",
                            201);
        }
        service().deploy("team-b", "{\"name\": \"b-big\", \"gpu\": {\"count\": 8}, \"preemptible\": true}", 201);
        await(
                "six team-a jobs and b-big",
                d -> figure("team-a", "data-in-quota") == 18 && figure("team-b", "data-in-quota") == 8);
        assertThat(nodesHolding("team-a/a-")).hasSize(2);
        String bigNode = nodesHolding("team-b/b-big").get(0);
        assertThat(page.findElements(By.cssSelector("[data-node='" + bigNode + "'] .share[data-job='team-b/b-big']")))
                .hasSize(8);
        assertThat(page.findElements(By.cssSelector(".gpu.idle"))).hasSize(40 - 18 - 8);

        // 2. idle capacity: team-a borrows beyond its guarantee; the map marks those shares as borrowed
        for (int i = 7; i <= 9; i++) {
            service()
                    .deploy(
                            "team-a",
                            "{\"name\": \"a-" + i + "\", \"gpu\": {\"count\": 3}, \"preemptible\": true}",
                            201);
        }
        // in quota: the fewest jobs that cover team-a's guarantee of 20 (seven 3-GPU jobs); the other two borrow
        await("team-a borrowing 6 GPUs", d -> figure("team-a", "data-borrowed") == 6);
        assertThat(figure("team-a", "data-in-quota")).isEqualTo(21);
        assertThat(page.findElement(By.cssSelector("[data-team='team-a'] .seg.inquota"))
                        .getSize()
                        .getWidth())
                .as("the bars' inline widths apply under the Content-Security-Policy")
                .isPositive();
        assertThat(page.findElements(By.cssSelector(".share.borrowed"))).hasSize(6);
        assertThat(page.findElements(By.cssSelector(".share.borrowed[data-job^='team-a/a-']")))
                .hasSize(6);

        // 3. greedy team: team-b takes its guarantee back; the borrowed jobs wait with the reason, in the history
        service().deploy("team-b", "{\"name\": \"b-train\", \"gpu\": {\"count\": 8}, \"preemptible\": true}", 201);
        await(
                "team-a's borrowed jobs preempted",
                d -> figure("team-a", "data-pending") == 9
                        && figure("team-a", "data-borrowed") == 0
                        && figure("team-b", "data-in-quota") == 16);
        assertThat(page.findElements(By.cssSelector(".share.borrowed"))).isEmpty();
        assertThat(page.findElements(By.cssSelector(".share[data-job='team-b/b-train']")))
                .hasSize(8);
        List<WebElement> pending = page.findElements(By.cssSelector("#pending tbody tr[data-job]"));
        assertThat(pending)
                .extracting(r -> r.getAttribute("data-job"))
                .containsExactlyInAnyOrder("team-a/a-7", "team-a/a-8", "team-a/a-9");
        assertThat(pending)
                .allSatisfy(r -> assertThat(r.getText())
                        .contains("Preempted by team-b reclaiming its guarantee for team-b/b-train"));
        assertThat(page.findElements(By.cssSelector("#history li[data-reason='Preempted']")))
                .extracting(e -> e.getAttribute("data-job"))
                .containsExactlyInAnyOrder("team-a/a-7", "team-a/a-8", "team-a/a-9");

        // a fraction: a quarter of one GPU with a burst limit, the rest of that GPU marked as fragmented
        service()
                .deploy(
                        "team-b",
                        "{\"name\": \"notebook\", \"template\": \"notebook\","
                                + " \"gpu\": {\"fraction\": 0.25, \"fractionLimit\": 0.5}}",
                        201);
        await(
                "the notebook's quarter GPU",
                d -> !page.findElements(By.cssSelector(".gpu.part .share[data-job='team-b/notebook']"))
                        .isEmpty());
        WebElement shared = page.findElement(By.cssSelector(".gpu.part:has(.share[data-job='team-b/notebook'])"));
        assertThat(Double.parseDouble(shared.getAttribute("data-free"))).isEqualTo(0.75);
        assertThat(shared.getAttribute("title"))
                .contains("team-b/notebook 0.25 (20480 MiB reserved", "may burst to 0.5: 20480 MiB loaned");
        assertThat(shared.findElements(By.cssSelector(".loan"))).hasSize(1);

        // the usage panel: the jobs' allocation, none of it measured (the embedded cluster has no enforcer)
        service()
                .await(
                        "team-b's allocation in the usage panel",
                        USAGE_UPDATE,
                        d -> figure(usageRow("team-b"), "data-allocated") > 0);
        assertThat(figure(usageRow("team-b"), "data-unmeasured"))
                .isEqualTo(figure(usageRow("team-b"), "data-allocated"));
        assertThat(figure(usageRow("team-b"), "data-used")).isZero();
        assertThat(page.findElement(By.id("usage-section")).getAttribute("data-window"))
                .isEqualTo("24h");

        browser.screenshot(Path.of("target/dashboard.png"));
        String docs = System.getProperty("dashboard.screenshot");
        if (docs != null && !docs.isBlank()) {
            browser.screenshot(Path.of(docs));
        }
    }

    @Test
    void aTokenFromTheUrlIsSentAsBearerAndARefusalIsExplained() throws Exception {
        WebDriver page = browser.driver();
        page.get(service().base() + "/#token=" + REFUSED_TOKEN);
        await("the refusal message", d -> d.findElement(By.id("error")).isDisplayed());
        assertThat(page.findElement(By.id("error")).getText()).contains("401", "bearer token");
        assertThat(lastAuthorization.get()).isEqualTo("Bearer " + REFUSED_TOKEN);
        assertThat(page.getCurrentUrl()).doesNotContain(REFUSED_TOKEN);

        page.findElement(By.id("token")).sendKeys("good-token");
        page.findElement(By.cssSelector("#token-form button[type=submit]")).click();
        await(
                "the page with the accepted token",
                d -> !d.findElement(By.id("error")).isDisplayed()
                        && "Bearer good-token".equals(lastAuthorization.get()));
        page.findElement(By.id("token-forget")).click();
    }

    private void await(String what, Function<WebDriver, Boolean> condition) {
        service().await(what, PAGE_UPDATE, condition);
    }

    private DashboardPage service() {
        return new DashboardPage(browser, port);
    }

    private WebElement team(String name) {
        List<WebElement> rows = browser.driver().findElements(By.cssSelector(".team[data-team='" + name + "']"));
        return rows.isEmpty() ? null : rows.get(0);
    }

    private double figure(String team, String attribute) {
        return figure(team(team), attribute);
    }

    private static double figure(WebElement element, String attribute) {
        return Double.parseDouble(element.getAttribute(attribute));
    }

    private WebElement usageRow(String team) {
        return browser.driver().findElement(By.cssSelector("#usage-teams .uteam[data-team='" + team + "']"));
    }

    private List<WebElement> cells() {
        return browser.driver().findElements(By.cssSelector(".gpu[data-gpu]"));
    }

    /** The nodes whose GPU map shows a share of a job whose key starts with the prefix. */
    private List<String> nodesHolding(String jobPrefix) {
        return browser
                .driver()
                .findElements(By.cssSelector(".node:has(.share[data-job^='" + jobPrefix + "'])"))
                .stream()
                .map(n -> n.getAttribute("data-node"))
                .toList();
    }

    /**
     * Stands in for the service's bearer-token authentication on the dashboard's data: remembers the header the
     * page sent and refuses one token with 401, so the page's token handling and its message are tested here.
     */
    @TestConfiguration
    static class TokenCheck {

        @Bean
        FilterRegistrationBean<OncePerRequestFilter> tokenRecorder() {
            FilterRegistrationBean<OncePerRequestFilter> bean =
                    new FilterRegistrationBean<>(new OncePerRequestFilter() {
                        @Override
                        protected void doFilterInternal(
                                HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                                throws ServletException, IOException {
                            String header = request.getHeader("Authorization");
                            lastAuthorization.set(header);
                            if (("Bearer " + REFUSED_TOKEN).equals(header)) {
                                response.sendError(401);
                                return;
                            }
                            chain.doFilter(request, response);
                        }
                    });
            bean.addUrlPatterns("/api/v1/dashboard");
            return bean;
        }
    }
}
