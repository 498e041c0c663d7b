package io.quotient.app.kubernetes;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.quotient.app.KubeconfigDiscovery.Kubeconfig;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Builds API clients from a kubeconfig file, or from the pod's service account when none is given. */
final class KubernetesClients {

    private KubernetesClients() {}

    /** A client for ordinary calls: they fail after 30 s instead of hanging a decision. */
    static ApiClient forCalls(Optional<Kubeconfig> kubeconfig) {
        ApiClient client = build(kubeconfig);
        client.setHttpClient(client.getHttpClient()
                .newBuilder()
                .readTimeout(30, TimeUnit.SECONDS)
                .connectTimeout(10, TimeUnit.SECONDS)
                .build());
        return client;
    }

    /** A client for informers: watches are long-lived reads, so no read timeout. */
    static ApiClient forWatches(Optional<Kubeconfig> kubeconfig) {
        ApiClient client = build(kubeconfig);
        client.setHttpClient(client.getHttpClient()
                .newBuilder()
                .readTimeout(0, TimeUnit.SECONDS)
                .build());
        return client;
    }

    /** The one start-up line that says which cluster this service works on, and why that one. */
    static String describe(Optional<Kubeconfig> kubeconfig, ApiClient client) {
        if (kubeconfig.isEmpty()) {
            return "Kubernetes cluster " + client.getBasePath() + " through the pod's service account (in-cluster)";
        }
        Kubeconfig file = kubeconfig.get();
        return "Kubernetes cluster " + client.getBasePath() + ", context '"
                + load(file).getCurrentContext() + "' of kubeconfig " + file.file() + " (from " + file.origin() + ")";
    }

    private static ApiClient build(Optional<Kubeconfig> kubeconfig) {
        try {
            if (kubeconfig.isEmpty()) {
                return ClientBuilder.cluster().build();
            }
            return ClientBuilder.kubeconfig(load(kubeconfig.get())).build();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot build a Kubernetes client from "
                            + kubeconfig
                                    .map(k -> "kubeconfig " + k.file() + " (from " + k.origin() + ")")
                                    .orElse("the pod's service account (not running in a"
                                            + " pod? then pass --quotient.kubeconfig=PATH or set KUBECONFIG)")
                            + ": " + e.getMessage(),
                    e);
        }
    }

    private static KubeConfig load(Kubeconfig kubeconfig) {
        try (Reader reader = Files.newBufferedReader(kubeconfig.file(), StandardCharsets.UTF_8)) {
            KubeConfig config = KubeConfig.loadKubeConfig(reader);
            config.setFile(kubeconfig.file().toFile());
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read kubeconfig " + kubeconfig.file() + " (from " + kubeconfig.origin() + "): "
                            + e.getMessage(),
                    e);
        }
    }
}
