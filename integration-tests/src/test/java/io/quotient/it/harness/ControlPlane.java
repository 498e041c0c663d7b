package io.quotient.it.harness;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.VersionInfo;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The one Kubernetes control plane of a test JVM, shared by every test class, with the one
 * {@link FakeKubelet} that serves all fake GPU nodes: started on first use,
 * stopped by a shutdown hook when the JVM ends (unless {@code -Dquotient.it.keepControlPlane=true}
 * leaves the local plane running for the next run to reuse).
 *
 * <p>If the start fails, every later test fails fast with the same error instead of retrying a
 * 10-minute build each time.
 */
public final class ControlPlane {

    private static ControlPlane shared;
    private static RuntimeException startFailure;

    private final ClusterBackend backend;
    private final ApiClient apiClient;
    private final int serverMinorVersion;
    private final FakeKubelet fakeKubelet;

    private ControlPlane(ClusterBackend backend) {
        this.backend = backend;
        this.apiClient = newApiClient(backend.kubeconfig());
        this.serverMinorVersion = readMinorVersion(apiClient);
        this.fakeKubelet = FakeKubelet.start(newApiClient(backend.kubeconfig()));
    }

    /** The JVM's control plane, started (or, for the local plane, reused) on first call. */
    public static synchronized ControlPlane shared() {
        if (startFailure != null) {
            throw new IllegalStateException(
                    "the test control plane failed to start earlier in this JVM: " + startFailure.getMessage(),
                    startFailure);
        }
        if (shared == null) {
            try {
                shared = start(HarnessSettings.fromSystemProperties());
            } catch (RuntimeException e) {
                startFailure = e;
                throw e;
            }
        }
        return shared;
    }

    private static ControlPlane start(HarnessSettings settings) {
        boolean useK3s = switch (settings.backend()) {
            case K3S -> true;
            case LOCAL -> false;
            case AUTO -> K3sBackend.dockerAvailable();
        };
        ClusterBackend backend = useK3s ? K3sBackend.start(settings) : LocalControlPlaneBackend.start(settings);
        ControlPlane plane;
        try {
            plane = new ControlPlane(backend);
        } catch (RuntimeException e) {
            backend.stop();
            throw e;
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            plane.fakeKubelet.close();
                            backend.stop();
                        },
                        "stop-test-control-plane"));
        int leftovers = Leftovers.remove(plane.apiClient);
        if (leftovers > 0) {
            System.err.println(
                    "[harness] removed " + leftovers + " fake nodes and test namespaces left by an earlier run");
        }
        System.err.println("[harness] tests run against " + backend.description() + " (server 1."
                + plane.serverMinorVersion + "), kubeconfig " + backend.kubeconfig());
        return plane;
    }

    /** Which Kubernetes this is, for messages. */
    public String description() {
        return backend.description();
    }

    /** A kubeconfig with admin credentials (for kubectl or the harness scripts). */
    public Path kubeconfig() {
        return backend.kubeconfig();
    }

    /** The client shared by the harness and the tests; no read timeout, so it also serves watches and informers. */
    public ApiClient apiClient() {
        return apiClient;
    }

    /** A new client of its own (e.g. for code under test that must not share connection pools or settings). */
    public ApiClient newApiClient() {
        return newApiClient(backend.kubeconfig());
    }

    /**
     * The one fake kubelet of this JVM, serving every fake GPU node (whoever made it) from the start: a node
     * with no kubelet would leave its pods Pending and deleted pods Terminating forever.
     */
    public FakeKubelet fakeKubelet() {
        return fakeKubelet;
    }

    /**
     * Restarts one component of the plane (a fault for the soak): SIGKILL or SIGTERM, started again with the same
     * flags, ports and data, waited for until healthy. Clients reconnect by themselves; watches re-list. Returns the
     * component's new PID.
     *
     * @throws UnsupportedOperationException on a plane whose processes the harness does not run (k3s)
     */
    public long restart(PlaneComponent component, boolean kill) {
        return backend.restart(component, kill);
    }

    /** The API server's minor version (20 for the local plane): e.g. eviction is policy/v1 only from 22. */
    public int serverMinorVersion() {
        return serverMinorVersion;
    }

    private static ApiClient newApiClient(Path kubeconfig) {
        try (Reader reader = Files.newBufferedReader(kubeconfig, StandardCharsets.UTF_8)) {
            ApiClient client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader))
                    .setReadTimeout(Duration.ZERO)
                    .build();
            client.setConnectTimeout(10_000);
            return client;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read kubeconfig " + kubeconfig, e);
        }
    }

    private static int readMinorVersion(ApiClient client) {
        try {
            VersionInfo version = new VersionApi(client).getCode().execute();
            return Integer.parseInt(version.getMinor().replaceAll("\\D.*$", ""));
        } catch (ApiException e) {
            throw new IllegalStateException(
                    "the test control plane does not answer /version: HTTP " + e.getCode() + " " + e.getResponseBody(),
                    e);
        }
    }
}
