package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.env.MockEnvironment;

class ClusterModeTest {

    @Test
    void withoutKubeconfigOrPodAutoRunsTheEmbeddedDemo() {
        assertThat(ClusterMode.resolve(new MockEnvironment())).isEqualTo(ClusterMode.EMBEDDED);
        assertThat(KubeconfigDiscovery.find(new MockEnvironment())).isEmpty();
    }

    @Test
    void kubeconfigVariableSelectsKubernetesLikeKubectl(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("config"), "apiVersion: v1");
        MockEnvironment env = new MockEnvironment().withProperty("KUBECONFIG", dir.resolve("missing") + ":" + file);
        assertThat(ClusterMode.resolve(env)).isEqualTo(ClusterMode.KUBERNETES);
        assertThat(KubeconfigDiscovery.find(env)).contains(new KubeconfigDiscovery.Kubeconfig(file, "KUBECONFIG"));
    }

    @Test
    void theCommandLineOptionWinsOverTheVariable(@TempDir Path dir) {
        MockEnvironment env = new MockEnvironment()
                .withProperty("KUBECONFIG", dir.resolve("a").toString())
                .withProperty("quotient.kubeconfig", dir.resolve("b").toString());
        assertThat(KubeconfigDiscovery.find(env))
                .contains(new KubeconfigDiscovery.Kubeconfig(dir.resolve("b"), "--quotient.kubeconfig"));
    }

    @Test
    void insideAPodAutoUsesTheServiceAccount() {
        MockEnvironment env = new MockEnvironment().withProperty("KUBERNETES_SERVICE_HOST", "10.0.0.1");
        assertThat(ClusterMode.resolve(env)).isEqualTo(ClusterMode.KUBERNETES);
        assertThat(KubeconfigDiscovery.find(env)).isEmpty();
    }

    @Test
    void anExplicitModeIsKeptEvenWithAKubeconfig() {
        MockEnvironment env = new MockEnvironment()
                .withProperty("KUBECONFIG", "/x")
                .withProperty("quotient.cluster.mode", "embedded");
        assertThat(ClusterMode.resolve(env)).isEqualTo(ClusterMode.EMBEDDED);
    }
}
