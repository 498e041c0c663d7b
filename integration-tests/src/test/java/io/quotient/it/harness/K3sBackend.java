package io.quotient.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Testcontainers' K3s, for machines with a Docker engine (laptops, hosted CI). The CI machines of this
 * project have none, so this path is exercised only there.
 *
 * <p>K3s runs a real kubelet for its own node; the fake GPU nodes have none, so the node lifecycle
 * controller is switched off as on the local plane (it would taint them unreachable and evict their pods).
 */
final class K3sBackend implements ClusterBackend {

    private final K3sContainer container;
    private final Path kubeconfig;

    private K3sBackend(K3sContainer container, Path kubeconfig) {
        this.container = container;
        this.kubeconfig = kubeconfig;
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static K3sBackend start(HarnessSettings settings) {
        if (!dockerAvailable()) {
            throw new IllegalStateException("quotient.it.backend=k3s needs a Docker engine and none answers here; "
                    + "use -Dquotient.it.backend=local (the Debian-built control plane) instead");
        }
        @SuppressWarnings("resource") // stopped by stop(), or by Testcontainers' reaper when the JVM dies
        K3sContainer container =
                new K3sContainer(DockerImageName.parse(settings.k3sImage()).asCompatibleSubstituteFor("rancher/k3s"));
        container.withCommand(
                "server",
                "--disable=traefik",
                "--tls-san=" + container.getHost(),
                "--kube-controller-manager-arg=controllers=*,-nodelifecycle");
        container.start();
        try {
            Path file = Files.createTempFile("quotient-k3s-", ".kubeconfig");
            file.toFile().deleteOnExit();
            Files.writeString(file, container.getKubeConfigYaml(), StandardCharsets.UTF_8);
            return new K3sBackend(container, file);
        } catch (IOException e) {
            container.stop();
            throw new UncheckedIOException("could not write the K3s kubeconfig", e);
        }
    }

    @Override
    public String description() {
        return "Testcontainers K3s (" + container.getDockerImageName() + ")";
    }

    @Override
    public Path kubeconfig() {
        return kubeconfig;
    }

    @Override
    public void stop() {
        container.stop();
    }
}
