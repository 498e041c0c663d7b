package io.quotient.it.soak;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.PlaneComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The soak's faults, one at a time, kinds in a seeded shuffled rotation so that every kind comes up equally often:
 * SIGKILL of the leader or of the follower (restarted at once with the same identity), SIGSTOP of the leader or
 * of the follower past the Lease's duration then SIGCONT, the network from both replicas to the API server cut for
 * a few seconds at the loopback proxy, and the plane's own API server or etcd restarted (SIGKILL or SIGTERM, at
 * random; started again with the same flags and data, its end is when it is healthy again). After each,
 * {@link Probes} measures the recovery.
 */
final class Faults {

    static final List<String> KINDS = List.of(
            "kill-leader", "kill-follower", "pause-leader", "pause-follower", "api-cut", "api-restart", "etcd-restart");
    /** Past the Lease (8 s) and its renew deadline, so the other replica takes over. */
    private static final long PAUSE_MS = 12_000;

    private final Random random;
    private final History history;
    private final List<Replica> replicas;
    private final LoopbackProxy proxy;
    private final Probes probes;
    private final CoordinationV1Api coordination;
    private final String namespace;
    private final ControlPlane plane;
    private final PlaneOutages outages;
    private final List<String> rotation = new ArrayList<>();

    Faults(
            long seed,
            History history,
            List<Replica> replicas,
            LoopbackProxy proxy,
            Probes probes,
            ControlPlane plane,
            String namespace,
            PlaneOutages outages) {
        this.random = new Random(seed * 31 + 7);
        this.history = history;
        this.replicas = replicas;
        this.proxy = proxy;
        this.probes = probes;
        this.coordination = new CoordinationV1Api(plane.apiClient());
        this.namespace = namespace;
        this.plane = plane;
        this.outages = outages;
    }

    /** Injects the next fault, waits for its end, measures the recovery; returns its kind. */
    String next() throws InterruptedException {
        if (rotation.isEmpty()) {
            rotation.addAll(KINDS);
            Collections.shuffle(rotation, random);
        }
        String kind = rotation.remove(0);
        Replica leader = leader();
        Replica target = kind.endsWith("-follower") ? other(leader) : leader;
        JsonObject entry = history.entry("fault");
        entry.addProperty("fault", kind);
        entry.addProperty(
                "target",
                switch (kind) {
                    case "api-cut", "api-restart" -> "api-server";
                    case "etcd-restart" -> "etcd";
                    default -> target.name();
                });
        long end;
        switch (kind) {
            case "kill-leader", "kill-follower" -> {
                target.killAndRestart();
                end = history.now();
            }
            case "pause-leader", "pause-follower" -> {
                target.pause();
                Thread.sleep(PAUSE_MS);
                target.resume();
                end = history.now();
            }
            case "api-restart", "etcd-restart" -> {
                boolean kill = random.nextBoolean();
                entry.addProperty("signal", kill ? "KILL" : "TERM");
                outages.begin();
                try {
                    entry.addProperty(
                            "pid",
                            plane.restart(
                                    kind.startsWith("api") ? PlaneComponent.API_SERVER : PlaneComponent.ETCD, kill));
                } finally {
                    outages.end();
                }
                end = history.now();
            }
            default -> {
                proxy.cut();
                Thread.sleep(2000 + random.nextInt(6000));
                proxy.restore();
                end = history.now();
            }
        }
        entry.addProperty("end", end);
        history.write(entry);
        probes.measure(kind, end);
        return kind;
    }

    /** The replica holding the Lease (the first replica if none does yet). */
    private Replica leader() {
        try {
            String holder = coordination
                    .readNamespacedLease("quotient-leader", namespace)
                    .execute()
                    .getSpec()
                    .getHolderIdentity();
            return replicas.stream()
                    .filter(r -> r.name().equals(holder))
                    .findFirst()
                    .orElse(replicas.get(0));
        } catch (ApiException e) {
            return replicas.get(0);
        }
    }

    private Replica other(Replica replica) {
        return replicas.stream().filter(r -> r != replica).findFirst().orElseThrow();
    }
}
