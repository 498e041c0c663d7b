package io.quotient.it.soak;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.quotient.it.deploy.WebhookTls;
import io.quotient.it.deploy.WorkloadWebhooks;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.TestNamespace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The admission side of the soak: one namespace of its own per team, opted in to the shipped workload webhooks
 * ({@code deploy/admission/workload-webhook.yaml}, failure policy Fail), and both replicas serving them, each on its
 * own admission port with one openssl-made certificate for 127.0.0.1. The API server reaches them by URL through a
 * loopback proxy that stands in for the webhook Service: each new connection goes to a replica that is up (not
 * killed, not paused), in turn, as a Service sends to its ready endpoints; with none up the connection is refused
 * and the API server refuses the create.
 */
final class SoakAdmission implements AutoCloseable {

    private final List<TestNamespace> namespaces = new ArrayList<>();
    private final Map<String, String> namespaceOf = new LinkedHashMap<>();
    private final WebhookTls tls;
    private final int[] ports;
    private final ApiClient client;
    private LoopbackProxy proxy;
    private WorkloadWebhooks webhooks;

    private SoakAdmission(ApiClient client, WebhookTls tls, int[] ports) {
        this.client = client;
        this.tls = tls;
        this.ports = ports;
    }

    /** Creates and opts in a namespace per team, and the certificate and ports of {@code replicas} replicas. */
    static SoakAdmission open(ControlPlane plane, List<String> teams, int replicas, Path dir) throws Exception {
        Files.createDirectories(dir);
        WebhookTls tls = WebhookTls.make(dir);
        int[] ports = new int[replicas];
        ports[0] = tls.port();
        for (int i = 1; i < replicas; i++) {
            ports[i] = freePort();
        }
        SoakAdmission admission = new SoakAdmission(plane.apiClient(), tls, ports);
        try {
            for (String team : teams) {
                TestNamespace namespace =
                        TestNamespace.create(admission.client, plane.serverMinorVersion(), "soak-" + team);
                admission.namespaces.add(namespace);
                WorkloadWebhooks.optIn(admission.client, namespace.name());
                admission.namespaceOf.put(team, namespace.name());
            }
        } catch (RuntimeException | ApiException e) {
            admission.close();
            throw e;
        }
        return admission;
    }

    /** Each team's own namespace. */
    Map<String, String> namespaceOf() {
        return Map.copyOf(namespaceOf);
    }

    /** The namespace → team map (the inverse). */
    Map<String, String> teamOf() {
        Map<String, String> teamOf = new LinkedHashMap<>();
        namespaceOf.forEach((team, namespace) -> teamOf.put(namespace, team));
        return teamOf;
    }

    /** The arguments that open replica {@code index}'s admission port with the soak's certificate. */
    String[] replicaArgs(int index) {
        return tls.argsOn(ports[index]);
    }

    /** Starts the proxy in front of the replicas (in the order of {@link #replicaArgs}) and registers the webhooks. */
    void register(List<Replica> replicas) throws IOException, ApiException {
        AtomicInteger turn = new AtomicInteger();
        proxy = new LoopbackProxy(() -> {
            List<Integer> up = new ArrayList<>();
            for (int i = 0; i < replicas.size(); i++) {
                if (replicas.get(i).available()) {
                    up.add(ports[i]);
                }
            }
            return up.isEmpty() ? -1 : up.get(Math.floorMod(turn.getAndIncrement(), up.size()));
        });
        webhooks = WorkloadWebhooks.register(client, proxy.port(), tls.caBundle());
    }

    @Override
    public void close() {
        if (webhooks != null) {
            webhooks.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        namespaces.forEach(TestNamespace::close);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for a replica's admission connector", e);
        }
    }
}
