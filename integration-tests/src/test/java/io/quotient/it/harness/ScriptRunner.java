package io.quotient.it.harness;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the harness's bash scripts, echoing its output to stderr as it comes (a first run builds
 * Kubernetes for minutes, and the log should show why), and returns the lines it printed.
 */
public final class ScriptRunner {

    /** What a finished script left: its exit status and its output lines (stdout and stderr together). */
    public record Result(int exitCode, List<String> lines) {

        public Result {
            lines = List.copyOf(lines);
        }

        public String output() {
            return String.join("\n", lines);
        }
    }

    private ScriptRunner() {}

    /** The script's output lines; throws with the command and the output's end when it fails or hangs. */
    public static List<String> run(Duration timeout, List<String> command) {
        Result result = execute(timeout, command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed with exit status " + result.exitCode()
                    + "; last output:\n" + tail(result.lines()));
        }
        return result.lines();
    }

    /** Runs the script to its end, whatever its exit status; throws only when it cannot start or hangs. */
    public static Result execute(Duration timeout, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        List<String> lines = new ArrayList<>();
        Thread pump = new Thread(() -> copyLines(process, lines), "script-output");
        pump.setDaemon(true);
        pump.start();
        try {
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroy);
                process.destroy();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout
                        + "; last output:\n" + tail(lines));
            }
            pump.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
        synchronized (lines) {
            return new Result(process.exitValue(), lines);
        }
    }

    private static void copyLines(Process process, List<String> lines) {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                System.err.println("[harness] " + line);
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            System.err.println("[harness] lost the script's output: " + e.getMessage());
        }
    }

    private static String tail(List<String> lines) {
        synchronized (lines) {
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        }
    }
}
