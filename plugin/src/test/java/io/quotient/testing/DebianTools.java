package io.quotient.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Tools from Debian packages that some tests run (Chromium, Prometheus): installed with apt-get by a script under
 * {@code src/test/bin} when missing, never downloaded from elsewhere.
 */
public final class DebianTools {

    private DebianTools() {}

    /**
     * Runs {@code script} unless every binary is already executable.
     *
     * @param packages what to tell the reader to install by hand when the script fails
     */
    public static void ensure(Path script, String packages, Path... binaries) throws IOException, InterruptedException {
        if (Arrays.stream(binaries).allMatch(Files::isExecutable)) {
            return;
        }
        Process p = new ProcessBuilder(script.toAbsolutePath().toString())
                .inheritIO()
                .start();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException(script + " could not install Debian's " + packages
                    + " (exit " + (p.isAlive() ? "timeout" : p.exitValue()) + "); install them with"
                    + " 'apt-get install " + packages + "' as root and run the test again");
        }
    }
}
