package io.quotient.app;

import org.springframework.core.env.Environment;

import java.util.Locale;

/**
 * Which cluster the service works on ({@code quotient.cluster.mode}). {@code auto} picks Kubernetes when a
 * kubeconfig is configured ({@code quotient.kubeconfig}) or the service runs in a pod, and the embedded
 * in-memory cluster otherwise, so {@code java -jar quotient.jar serve} works on a fresh machine.
 */
public enum ClusterMode {
    AUTO, EMBEDDED, KUBERNETES;

    static final String PROPERTY = "quotient.cluster.mode";

    /** The mode in effect: never {@link #AUTO}. */
    public static ClusterMode resolve(Environment env) {
        String configured = env.getProperty(PROPERTY, "auto").trim().toUpperCase(Locale.ROOT);
        ClusterMode mode;
        try {
            mode = valueOf(configured);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + " is '" + env.getProperty(PROPERTY)
                    + "'; use auto, embedded or kubernetes");
        }
        if (mode != AUTO) {
            return mode;
        }
        boolean kubeconfig = !env.getProperty("quotient.kubeconfig", "").isBlank();
        boolean inPod = !env.getProperty("KUBERNETES_SERVICE_HOST", "").isBlank();
        return kubeconfig || inPod ? KUBERNETES : EMBEDDED;
    }
}
