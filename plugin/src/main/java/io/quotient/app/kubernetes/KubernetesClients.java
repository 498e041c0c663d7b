package io.quotient.app.kubernetes;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Builds API clients from a kubeconfig file, or from the pod's service account when none is given. */
final class KubernetesClients {

    private KubernetesClients() {
    }

    /** A client for ordinary calls: they fail after 30 s instead of hanging a decision. */
    static ApiClient forCalls(String kubeconfig) {
        ApiClient client = build(kubeconfig);
        client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(30, TimeUnit.SECONDS)
                .connectTimeout(10, TimeUnit.SECONDS).build());
        return client;
    }

    /** A client for informers: watches are long-lived reads, so no read timeout. */
    static ApiClient forWatches(String kubeconfig) {
        ApiClient client = build(kubeconfig);
        client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(0, TimeUnit.SECONDS).build());
        return client;
    }

    private static ApiClient build(String kubeconfig) {
        try {
            if (kubeconfig == null || kubeconfig.isBlank()) {
                return ClientBuilder.cluster().build();
            }
            Path file = Path.of(kubeconfig);
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                KubeConfig config = KubeConfig.loadKubeConfig(reader);
                config.setFile(file.toFile());
                return ClientBuilder.kubeconfig(config).build();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build a Kubernetes client from "
                    + (kubeconfig == null || kubeconfig.isBlank() ? "the pod's service account (not running in a pod?"
                    + " then pass --quotient.kubeconfig=PATH)" : "kubeconfig " + kubeconfig) + ": " + e.getMessage(), e);
        }
    }
}
