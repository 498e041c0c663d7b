package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same input replays the same in two JVM processes, decision for decision. Within one JVM the property tests
 * show determinism; across JVMs an iteration order salted per process (Map.copyOf, Set.copyOf) or an identity hash
 * reaching a decision would differ, as the whole Philly slice once did (12,396 against 12,147 preemptions).
 */
class ReplayAcrossJvmsTest {

    private static final int TRACES = 12;

    @Test
    void twoProcessesDecideTheSame(@TempDir Path dir) throws Exception {
        String first = replayInNewJvm(dir.resolve("first.log"));
        String second = replayInNewJvm(dir.resolve("second.log"));

        assertThat(first).contains(" evict ").contains(" start ").contains("trace " + (TRACES - 1) + " kai-like");
        assertThat(second).isEqualTo(first);
    }

    private static String replayInNewJvm(Path log) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        DecisionLogMain.class.getName(),
                        Integer.toString(TRACES),
                        // the two whose decisions differed between JVMs before the fix
                        "quotient",
                        "kai-like"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(process.waitFor(5, TimeUnit.MINUTES))
                .as("replay process finished")
                .isTrue();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(out).isZero();
        return out;
    }
}
