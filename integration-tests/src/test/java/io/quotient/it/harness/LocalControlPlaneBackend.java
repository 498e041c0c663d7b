package io.quotient.it.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The control plane of {@code integration-tests/bin/control-plane}: Kubernetes 1.20 binaries built from
 * Debian's sources (cached after the first build), etcd, all on loopback ports, state under one folder.
 */
final class LocalControlPlaneBackend implements ClusterBackend {

    /** A cold start builds the binaries first: ~6-10 minutes on 2 cores, more on a busy machine. */
    private static final Duration UP_TIMEOUT = Duration.ofMinutes(40);

    private static final Duration DOWN_TIMEOUT = Duration.ofMinutes(1);
    /** Stop (at most 15 s), start, and the component's own readiness wait (at most 120 s). */
    private static final Duration RESTART_TIMEOUT = Duration.ofMinutes(3);

    private final HarnessSettings settings;
    private final Path kubeconfig;

    private LocalControlPlaneBackend(HarnessSettings settings, Path kubeconfig) {
        this.settings = settings;
        this.kubeconfig = kubeconfig;
    }

    static LocalControlPlaneBackend start(HarnessSettings settings) {
        Path script = settings.controlPlaneScript();
        List<String> output = ScriptRunner.run(
                UP_TIMEOUT, List.of(script.toString(), "up", settings.stateDir().toString()));
        Path kubeconfig =
                output.isEmpty() ? null : Path.of(output.get(output.size() - 1).trim());
        if (kubeconfig == null || !Files.isRegularFile(kubeconfig)) {
            throw new IllegalStateException(script + " up " + settings.stateDir()
                    + " succeeded but its last line is not a kubeconfig file: " + kubeconfig);
        }
        return new LocalControlPlaneBackend(settings, kubeconfig);
    }

    @Override
    public String description() {
        return "local control plane (Kubernetes 1.20 from Debian sources) in " + settings.stateDir();
    }

    @Override
    public Path kubeconfig() {
        return kubeconfig;
    }

    @Override
    public long restart(PlaneComponent component, boolean kill) {
        List<String> output = ScriptRunner.run(
                RESTART_TIMEOUT,
                List.of(
                        settings.controlPlaneScript().toString(),
                        "restart",
                        settings.stateDir().toString(),
                        component.processName(),
                        kill ? "KILL" : "TERM"));
        String last = output.isEmpty() ? "" : output.get(output.size() - 1).trim();
        if (!last.matches("\\d+")) {
            throw new IllegalStateException(settings.controlPlaneScript() + " restart " + component.processName()
                    + " succeeded but its last line is not the new PID: '" + last + "'");
        }
        return Long.parseLong(last);
    }

    @Override
    public void stop() {
        if (settings.keepRunning()) {
            System.err.println(
                    "[harness] leaving the control plane running for reuse (quotient.it.keepControlPlane=true); "
                            + "stop it with: " + settings.controlPlaneScript() + " down " + settings.stateDir());
            return;
        }
        ScriptRunner.run(
                DOWN_TIMEOUT,
                List.of(
                        settings.controlPlaneScript().toString(),
                        "down",
                        settings.stateDir().toString()));
    }
}
