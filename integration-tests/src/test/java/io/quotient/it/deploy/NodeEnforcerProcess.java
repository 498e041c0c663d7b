package io.quotient.it.deploy;

import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real node enforcer ({@code node-enforcer}'s executable jar, a process of its own) for one fake GPU node of the
 * test plane, reading the fake {@code libnvidia-ml} through its real JNA binding and publishing the node's
 * {@code quotient.io/gpu-report} with each pod's usage counters, as the DaemonSet does on a GPU node. What a node
 * would have and the plane lacks is stood in for: each pod's GPU process is a real {@code sleep} process that a proc
 * root of the test's own maps into the pod's container (its {@code cgroup} file names the pod's UID and the container
 * ID the fake kubelet reported; its {@code stat} is the real process's), and {@link FakeNvmlDriver} lists it on the
 * GPU with the utilisation the test sets. Dry run (it never signals), and without the kubelet's pod-resources socket
 * (reservation pods are not matched; whole GPUs need no matching).
 */
final class NodeEnforcerProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final Path procRoot;
    private final FakeNvmlDriver driver;
    private final List<Process> gpuProcesses = new ArrayList<>();

    private NodeEnforcerProcess(Process process, Path log, Path procRoot, FakeNvmlDriver driver) {
        this.process = process;
        this.log = log;
        this.procRoot = procRoot;
        this.driver = driver;
    }

    /**
     * Starts the enforcer of {@code node}, reporting every {@code reportPeriod} (the report's max age; usage changes
     * at most every second), its state under {@code dir}.
     */
    static NodeEnforcerProcess start(ControlPlane plane, FakeGpuNode node, Path dir, String reportPeriod) {
        Path jar = Path.of(System.getProperty(
                        "quotient.it.enforcerJar", "../node-enforcer/target/quotient-node-enforcer.jar"))
                .toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the node enforcer's jar is missing at " + jar + ": build it with "
                    + "mvn -B verify, or mvn -B -DskipTests package -pl node-enforcer");
        }
        try {
            Path procRoot = Files.createDirectories(dir.resolve("proc"));
            FakeNvmlDriver driver = new FakeNvmlDriver(node, dir.resolve("nvml-state"));
            Path log = dir.resolve("node-enforcer.log");
            List<String> command = List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-XX:TieredStopAtLevel=1", // starts faster on the 2 shared cores; it does little work
                    "-jar",
                    jar.toString(),
                    "--server.port=" + QuotientService.freePort(),
                    "--quotient.enforcer.node-name=" + node.name(),
                    "--quotient.enforcer.proc-root=" + procRoot,
                    "--quotient.enforcer.nvml-libraries=" + FakeNvmlDriver.library(),
                    "--quotient.enforcer.dry-run=true",
                    "--quotient.enforcer.kubernetes.pod-resources-socket=" + dir.resolve("no-kubelet.sock"),
                    "--quotient.enforcer.kubernetes.reservation-sync-interval=1h",
                    "--quotient.enforcer.kubernetes.report-min-interval=1s",
                    "--quotient.enforcer.kubernetes.report-max-age=" + reportPeriod);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().put("KUBECONFIG", plane.kubeconfig().toString());
            builder.environment().put("FAKE_NVML_STATE", driver.stateFile().toString());
            return new NodeEnforcerProcess(builder.start(), log, procRoot, driver);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the node enforcer of " + node.name(), e);
        }
    }

    /**
     * Starts a process in {@code pod}'s first container (a running pod, as the fake kubelet reports it) and has NVML
     * list it on GPU {@code gpu} at {@code utilisationPercent}.
     */
    synchronized void runOnGpu(V1Pod pod, int gpu, int utilisationPercent) {
        List<V1ContainerStatus> containers = pod.getStatus().getContainerStatuses();
        if (containers == null || containers.isEmpty() || containers.get(0).getContainerID() == null) {
            throw new IllegalArgumentException("pod " + pod.getMetadata().getName() + " has no running container yet");
        }
        String containerId = containers.get(0).getContainerID().replaceFirst("^[a-z]+://", "");
        try {
            Process sleeper = new ProcessBuilder("sleep", "3600").start();
            gpuProcesses.add(sleeper);
            Path dir = Files.createDirectories(procRoot.resolve(Long.toString(sleeper.pid())));
            // cgroup v2, systemd driver, containerd: the enforcer finds pod and container in this path
            Files.writeString(
                    dir.resolve("cgroup"),
                    "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
                            + pod.getMetadata().getUid().replace('-', '_') + ".slice/cri-containerd-" + containerId
                            + ".scope\n");
            Files.createSymbolicLink(dir.resolve("stat"), Path.of("/proc", Long.toString(sleeper.pid()), "stat"));
            driver.run(sleeper.pid(), gpu, utilisationPercent);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not put a GPU process into pod " + pod.getMetadata().getName(), e);
        }
    }

    /** The enforcer's log so far (for a failure message). */
    String log() {
        return QuotientService.tail(log);
    }

    boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroy();
        gpuProcesses.forEach(Process::destroyForcibly);
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly(); // a shutdown that hangs must not hang the test run
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
