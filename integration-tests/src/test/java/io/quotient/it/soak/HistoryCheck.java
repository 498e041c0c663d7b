package io.quotient.it.soak;

import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Re-verifies a soak's history file offline: {@code java -cp <test classpath> io.quotient.it.soak.HistoryCheck
 * integration-tests/target/soak/soak-<seed>-<time>.jsonl} (or a gzipped one). Prints the figures and every violation; exits 1 when there is
 * one, 2 when the file cannot be read.
 */
public final class HistoryCheck {

    private HistoryCheck() {}

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: HistoryCheck <history.jsonl> (a soak's history, under target/soak/)");
            System.exit(2);
        }
        try {
            HistoryChecker.Verdict verdict = check(Path.of(args[0]));
            System.out.print(verdict.figures().describe());
            verdict.violations().forEach(v -> System.out.println("VIOLATION " + v));
            System.out.println(verdict.violations().size() + " violation(s) in " + args[0]);
            System.exit(verdict.violations().isEmpty() ? 0 : 1);
        } catch (IOException | RuntimeException e) {
            System.err.println("cannot check " + args[0] + ": " + e.getMessage()
                    + " (is it a soak history, one JSON object per line?)");
            System.exit(2);
        }
    }

    /** Feeds every line of the file to a fresh checker. */
    static HistoryChecker.Verdict check(Path history) throws IOException {
        HistoryChecker checker = new HistoryChecker();
        try (BufferedReader lines = open(history)) {
            String line;
            int number = 0;
            while ((line = lines.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    checker.accept(JsonParser.parseString(line).getAsJsonObject());
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(
                            "line " + number + " is not a history entry: " + e.getMessage(), e);
                }
            }
        }
        return checker.finish();
    }

    /** A history as written, or gzipped (an archived one). */
    private static BufferedReader open(Path history) throws IOException {
        if (!history.getFileName().toString().endsWith(".gz")) {
            return Files.newBufferedReader(history);
        }
        return new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(history)), StandardCharsets.UTF_8));
    }
}
