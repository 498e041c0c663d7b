package io.quotient.app;

import java.util.Locale;
import org.springframework.core.env.Environment;

/**
 * Which cluster the service works on ({@code quotient.cluster.mode}). {@code auto} picks Kubernetes when a
 * kubeconfig is found ({@code quotient.kubeconfig}, then {@code KUBECONFIG}: {@link KubeconfigDiscovery}) or the
 * service runs in a pod, and the embedded in-memory cluster otherwise, so {@code java -jar quotient.jar serve}
 * works on a fresh machine.
 */
public enum ClusterMode {
    AUTO,
    EMBEDDED,
    KUBERNETES;

    static final String PROPERTY = "quotient.cluster.mode";

    /** The mode in effect: never {@link #AUTO}. */
    public static ClusterMode resolve(Environment env) {
        String configured = env.getProperty(PROPERTY, "auto").trim().toUpperCase(Locale.ROOT);
        ClusterMode mode;
        try {
            mode = valueOf(configured);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    PROPERTY + " is '" + env.getProperty(PROPERTY) + "'; use auto, embedded or kubernetes");
        }
        if (mode != AUTO) {
            return mode;
        }
        boolean kubeconfig = KubeconfigDiscovery.find(env).isPresent();
        return kubeconfig || KubeconfigDiscovery.inPod(env) ? KUBERNETES : EMBEDDED;
    }
}
