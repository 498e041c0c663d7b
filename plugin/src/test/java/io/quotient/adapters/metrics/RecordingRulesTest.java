package io.quotient.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.testing.DebianTools;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recording rules shipped in {@code deploy/prometheus/quotient-rules.yaml}, checked by Debian's
 * {@code promtool} (installed by {@code src/test/bin/install-prometheus} when missing): the file is valid, and on a
 * scripted day of counters the rules give the GPU-hours per team and quota state that the day held.
 */
class RecordingRulesTest {

    static final Path PROMTOOL = Path.of("/usr/bin/promtool");
    static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    static final Path RULES = Path.of("../deploy/prometheus/quotient-rules.yaml");
    private static final Path INSTALL_SCRIPT = Path.of("src/test/bin/install-prometheus");

    @TempDir
    Path dir;

    @BeforeAll
    static void install() throws IOException, InterruptedException {
        DebianTools.ensure(INSTALL_SCRIPT, "prometheus", PROMTOOL, PROMETHEUS);
    }

    @Test
    void theShippedRulesAreValid() throws Exception {
        String out = promtool("check", "rules", RULES.toAbsolutePath().toString());
        assertThat(out).contains("SUCCESS: 6 rules found");
    }

    @Test
    void theRulesGiveEachTeamsGpuHoursOfTheDay() throws Exception {
        // promtool resolves rule_files next to the test file: both go into one folder
        Files.copy(RULES, dir.resolve("quotient-rules.yaml"));
        try (InputStream test = getClass().getResourceAsStream("/prometheus/quotient-rules-test.yaml")) {
            Files.copy(test, dir.resolve("quotient-rules-test.yaml"));
        }
        String out = promtool(
                "test", "rules", dir.resolve("quotient-rules-test.yaml").toString());
        assertThat(out).contains("SUCCESS").doesNotContain("FAILED");
    }

    /** Runs promtool; fails the test with its output unless it exits 0. */
    private static String promtool(String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = PROMTOOL.toString();
        System.arraycopy(args, 0, command, 1, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        assertThat(p.exitValue())
                .as("promtool %s:\n%s", String.join(" ", args), out)
                .isZero();
        return out;
    }
}
