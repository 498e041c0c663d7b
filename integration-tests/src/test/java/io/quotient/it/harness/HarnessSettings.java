package io.quotient.it.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How the harness finds and runs its control plane, read from system properties (the module's pom sets
 * them for failsafe; an IDE run falls back to paths relative to the working directory).
 *
 * @param backend           {@code quotient.it.backend}: {@code auto} (K3s when a Docker engine answers,
 *                          otherwise the local control plane), {@code local} or {@code k3s}
 * @param scriptsDir        {@code quotient.it.scripts}: the folder holding {@code control-plane}
 * @param stateDir          {@code quotient.it.controlPlaneDir}: where the local plane keeps its state
 * @param keepRunning       {@code quotient.it.keepControlPlane}: leave the local plane running after the
 *                          test JVM ends so the next run reuses it (stop it with {@code control-plane down DIR})
 * @param k3sImage          {@code quotient.it.k3sImage}: the K3s image for the Docker path
 */
public record HarnessSettings(Backend backend, Path scriptsDir, Path stateDir, boolean keepRunning, String k3sImage) {

    /** Which Kubernetes the tests talk to. */
    public enum Backend {
        AUTO,
        LOCAL,
        K3S
    }

    static final String DEFAULT_K3S_IMAGE = "rancher/k3s:v1.21.14-k3s1";

    public static HarnessSettings fromSystemProperties() {
        String backendName = System.getProperty("quotient.it.backend", "auto").trim();
        Backend backend;
        try {
            backend = Backend.valueOf(backendName.isEmpty() ? "AUTO" : backendName.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "quotient.it.backend is '" + backendName
                            + "'; use auto, local or k3s (e.g. mvn verify -Dquotient.it.backend=local)",
                    e);
        }
        Path scripts = Path.of(
                System.getProperty("quotient.it.scripts", defaultScriptsDir().toString()));
        Path state = Path.of(System.getProperty(
                "quotient.it.controlPlaneDir",
                Path.of(
                                System.getProperty("java.io.tmpdir"),
                                "quotient-it-control-plane-"
                                        + ProcessHandle.current().pid())
                        .toString()));
        boolean keep = Boolean.parseBoolean(System.getProperty("quotient.it.keepControlPlane", "false"));
        String image = System.getProperty("quotient.it.k3sImage", DEFAULT_K3S_IMAGE);
        return new HarnessSettings(backend, scripts.toAbsolutePath(), state.toAbsolutePath(), keep, image);
    }

    /** An IDE runs tests from the module or from the repository root. */
    private static Path defaultScriptsDir() {
        Path fromModule = Path.of("bin");
        return Files.isRegularFile(fromModule.resolve("control-plane"))
                ? fromModule
                : Path.of("integration-tests", "bin");
    }

    Path controlPlaneScript() {
        Path script = scriptsDir.resolve("control-plane");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException(
                    "control-plane script not found or not executable at " + script
                            + "; run the tests from the repository (mvn verify) or set -Dquotient.it.scripts=<repo>/integration-tests/bin");
        }
        return script;
    }
}
