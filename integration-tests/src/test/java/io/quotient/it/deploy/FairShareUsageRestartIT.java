package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.quotient.adapters.k8s.KubernetesCallException;
import io.quotient.adapters.k8s.records.KubernetesFairShareUsageStore;
import io.quotient.core.model.UsageRecord;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decayed fair-share usage survives a restart on the real control plane: a service records what a team
 * borrows, is stopped, and a new one shows the same decayed usage (less what the half-life took meanwhile), read from
 * the ConfigMap the first one wrote. A corrupt ConfigMap starts the history empty instead of stopping the service,
 * and is rewritten. A late write of a former leader fails on the resourceVersion.
 */
@RealKubernetes
class FairShareUsageRestartIT {

    private static final double HALF_LIFE_SECONDS = 60;
    private static final String[] DECAY = {
        "--quotient.scheduling.fair-share.usage-half-life=60s", "--quotient.scheduling.fair-share.window=1h"
    };
    /** {@code decayedUsageGpus} is shown in milli-GPU. */
    private static final double SHOWN = 0.002;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    private static double decayed(QuotientApi api) {
        return api.team("team-a").get("decayedUsageGpus").getAsDouble();
    }

    private static double decay(double seconds) {
        return Math.pow(2, -seconds / HALF_LIFE_SECONDS);
    }

    @Test
    void aNewServiceShowsTheDecayedUsageTheStoppedOneRecorded(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, @TempDir Path dir) throws Exception {
        nodes.create(FakeGpuNodeSpec.of("fair", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 0, null),
                new TeamsFile.Quota("team-b", 2, null));
        CoreV1Api core = new CoreV1Api(plane.apiClient());

        double before;
        long beforeFrom;
        long beforeUntil;
        try (QuotientService first = QuotientService.inProcess(plane, namespace.name(), teams, DECAY)) {
            QuotientApi api = first.api();
            QuotientApi.Answer placed = api.deploy("team-a", Requests.wholeGpus("a-1", 2));
            assertThat(placed.status()).as("%s", placed).isEqualTo(201);
            assertThat(placed.text("quotaState")).isEqualTo("OverQuota");
            Await.until("team-a's decayed usage to grow", () -> decayed(api), d -> d > 0.2);
            assertThat(api.delete("team-a", "a-1").status()).isLessThan(300);
            // once a snapshot records that team-a borrows nothing, its decayed usage only decays
            Await.until(
                    "team-a's decayed usage to fall",
                    () -> {
                        double earlier = decayed(api);
                        QuotientService.sleep(Duration.ofMillis(1500));
                        return earlier - decayed(api);
                    },
                    fall -> fall > 0);
            beforeFrom = System.currentTimeMillis();
            before = decayed(api);
            beforeUntil = System.currentTimeMillis();
        }
        V1ConfigMap stored = core.readNamespacedConfigMap(KubernetesFairShareUsageStore.NAME, namespace.name())
                .execute();
        assertThat(stored.getData().get(KubernetesFairShareUsageStore.KEY)).contains("team-a");

        try (QuotientService second = QuotientService.inProcess(plane, namespace.name(), teams, DECAY)) {
            long afterFrom = System.currentTimeMillis();
            double after = decayed(second.api());
            long afterUntil = System.currentTimeMillis();
            assertThat(after).as("not an empty history").isGreaterThan(0.05);
            assertThat(after)
                    .as("the same decayed usage, less what %s s of half-life took", HALF_LIFE_SECONDS)
                    .isBetween(
                            before * decay((afterUntil - beforeFrom) / 1000.0) - SHOWN,
                            before * decay((afterFrom - beforeUntil) / 1000.0) + SHOWN);
        }

        V1ConfigMap corrupt = core.readNamespacedConfigMap(KubernetesFairShareUsageStore.NAME, namespace.name())
                .execute();
        corrupt.setData(Map.of(KubernetesFairShareUsageStore.KEY, "{\"version\": 1, \"buckets\": "));
        core.replaceNamespacedConfigMap(KubernetesFairShareUsageStore.NAME, namespace.name(), corrupt)
                .execute();
        try (QuotientService third = QuotientService.inProcess(plane, namespace.name(), teams, DECAY)) {
            QuotientApi api = third.api();
            assertThat(api.text("/actuator/health/readiness")).contains("\"UP\"");
            assertThat(decayed(api)).as("a corrupt history starts empty").isZero();
            // a decision records (team-b within its guarantee borrows nothing) and the leader rewrites the ConfigMap
            QuotientApi.Answer placed = api.deploy("team-b", Requests.wholeGpus("b-1", 1));
            assertThat(placed.status()).as("%s", placed).isEqualTo(201);
            String rewritten = Await.until(
                    "the ConfigMap to be rewritten",
                    () -> core.readNamespacedConfigMap(KubernetesFairShareUsageStore.NAME, namespace.name())
                            .execute()
                            .getData()
                            .get(KubernetesFairShareUsageStore.KEY),
                    text -> text.contains("\"lastBorrowed\""));
            assertThat(JsonParser.parseString(rewritten)
                            .getAsJsonObject()
                            .get("version")
                            .getAsInt())
                    .isEqualTo(1);
        }
    }

    @Test
    void aLateWriteOfAFormerLeaderFailsOnTheVersionAndTheNewLeadersHistoryStays(
            ApiClient client, TestNamespace namespace) {
        KubernetesFairShareUsageStore former = new KubernetesFairShareUsageStore(client, namespace.name());
        assertThat(former.load()).isEmpty();
        UsageRecord first = new UsageRecord(
                1000,
                Instant.parse("2026-12-02T01:00:00Z"),
                Map.of("team-a", 2000L),
                Map.of("team-a", Map.of(7L, 5.0)));
        former.save(first);

        // a new leader loads what the former one saved and saves its own; the former one wakes and writes late
        KubernetesFairShareUsageStore elected = new KubernetesFairShareUsageStore(client, namespace.name());
        assertThat(elected.load()).contains(first);
        UsageRecord newer = new UsageRecord(
                1000, Instant.parse("2026-12-02T01:05:00Z"), Map.of(), Map.of("team-a", Map.of(7L, 9.0)));
        elected.save(newer);
        UsageRecord late = new UsageRecord(
                1000,
                Instant.parse("2026-12-02T01:04:00Z"),
                Map.of("team-a", 2000L),
                Map.of("team-a", Map.of(7L, 8.0)));
        assertThatThrownBy(() -> former.save(late))
                .isInstanceOf(KubernetesCallException.class)
                .hasMessageContaining("HTTP 409");
        assertThat(new KubernetesFairShareUsageStore(client, namespace.name()).load())
                .contains(newer);

        // the new leader keeps writing over its own versions
        UsageRecord next = new UsageRecord(1000, Instant.parse("2026-12-02T01:06:00Z"), Map.of(), Map.of());
        elected.save(next);
        assertThat(new KubernetesFairShareUsageStore(client, namespace.name()).load())
                .contains(next);
    }
}
