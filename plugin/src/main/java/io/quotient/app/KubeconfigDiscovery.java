package io.quotient.app;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.springframework.core.env.Environment;

/**
 * Finds the kubeconfig the way kubectl does, so that {@code KUBECONFIG=... quotient.jar serve} talks to that cluster
 * instead of silently starting the demo: {@code --quotient.kubeconfig} first, then the {@code KUBECONFIG}
 * variable (its first existing file: kubectl merges a list, Quotient uses one file), and otherwise none (then
 * the pod's service account inside a pod, or the embedded cluster outside one). {@code ~/.kube/config} is
 * deliberately not consulted: a developer's default context must not turn the local demo into a deploy.
 */
public final class KubeconfigDiscovery {

    static final String PROPERTY = "quotient.kubeconfig";
    static final String VARIABLE = "KUBECONFIG";
    private static final String IN_POD_VARIABLE = "KUBERNETES_SERVICE_HOST";

    private KubeconfigDiscovery() {}

    /**
     * A kubeconfig file and where it was named.
     *
     * @param origin {@code --quotient.kubeconfig} or {@code KUBECONFIG}, for the start-up line
     */
    public record Kubeconfig(Path file, String origin) {}

    /** The kubeconfig to use, if one is named; a named file that does not exist is still returned (its error is clearer). */
    public static Optional<Kubeconfig> find(Environment env) {
        String configured = env.getProperty(PROPERTY, "");
        if (!configured.isBlank()) {
            return Optional.of(new Kubeconfig(Path.of(configured.trim()), "--" + PROPERTY));
        }
        String list = env.getProperty(VARIABLE, "");
        if (list.isBlank()) {
            return Optional.empty();
        }
        String first = null;
        for (String entry : list.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            first = first == null ? entry : first;
            if (Files.isRegularFile(Path.of(entry))) {
                return Optional.of(new Kubeconfig(Path.of(entry), VARIABLE));
            }
        }
        return first == null ? Optional.empty() : Optional.of(new Kubeconfig(Path.of(first), VARIABLE));
    }

    /** Whether the service runs inside a pod (the kubelet sets this variable in every container). */
    public static boolean inPod(Environment env) {
        return !env.getProperty(IN_POD_VARIABLE, "").isBlank();
    }
}
