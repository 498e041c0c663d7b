package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.quotient.adapters.k8s.records.ConfigMapTeamsSource;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.StaleRecordException;
import io.quotient.it.harness.RealKubernetes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The records against the real API server: the GpuJob store (created first, status written with optimistic
 * concurrency, what the server stored kept) and the teams ConfigMap (an invalid edit keeps the last good teams).
 */
@RealKubernetes
class RecordStoreIT extends AdaptersOnRealPlane {

    @Test
    void storeRecordsFirstThenUpdatesStatusWithOptimisticConcurrency() throws Exception {
        JobRecord created = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "train-1", 2));

        assertThat(created.version()).isNotBlank();
        assertThat(adapters.store.find(created.id()))
                .get()
                .extracting(JobRecord::phase)
                .isEqualTo(JobPhase.PENDING);
        assertThatThrownBy(() -> adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "train-1", 1)))
                .isInstanceOf(JobAlreadyExistsException.class);

        JobStatus placed = JobStatus.placed(
                "node-x",
                List.of(new GpuBinding(0, null, 1), new GpuBinding(1, null, 1)),
                QuotaState.IN_QUOTA,
                Instant.parse("2024-05-01T10:00:00Z"));
        JobRecord updated = adapters.store.updateStatus(created, placed);
        assertThat(updated.status()).isEqualTo(placed);
        assertThat(updated.version()).isNotEqualTo(created.version());
        // read-your-writes: the very next read sees the update, whatever the informer's lag
        assertThat(adapters.store.find(created.id()))
                .get()
                .extracting(JobRecord::status)
                .isEqualTo(placed);

        assertThatThrownBy(() -> adapters.store.updateStatus(created, JobStatus.pending("stale writer")))
                .isInstanceOf(StaleRecordException.class);

        adapters.store.create(AdapterFixture.wholeGpuRecord("team-b", "eval", 1));
        assertThat(adapters.store.list("team-a")).extracting(r -> r.id().name()).containsExactly("train-1");
        assertThat(adapters.store.listAll()).extracting(r -> r.id().team()).containsExactly("team-a", "team-b");

        assertThat(adapters.store.delete(created.id())).isTrue();
        assertThat(adapters.store.find(created.id())).isEmpty();
        assertThat(adapters.store.delete(created.id())).isFalse();
        assertThatThrownBy(() -> adapters.store.updateStatus(updated, placed)).isInstanceOf(StaleRecordException.class);
    }

    @Test
    void aRecordIsCreatedWithItsFirstDecisionAndAStatusWriteKeepsWhatTheServerStored() throws Exception {
        JobStatus placed = JobStatus.placed(
                "node-x",
                List.of(new GpuBinding(3, null, 1)),
                QuotaState.OVER_QUOTA,
                Instant.parse("2024-05-01T10:00:00Z"));

        JobRecord created = adapters.store.create(
                AdapterFixture.wholeGpuRecord("team-a", "at-once", 1).withStatus(placed));

        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());
        JsonObject stored = cluster.gpuJobs().get(0).getRaw();
        assertThat(created.status()).isEqualTo(placed);
        assertThat(stored.getAsJsonObject("status").get("node").getAsString())
                .as("one write")
                .isEqualTo("node-x");
        assertThat(stored.getAsJsonObject("status").get("quotaState").getAsString())
                .isEqualTo("OverQuota");

        adapters.store.updateStatus(created, created.status().withPhase(JobPhase.RUNNING, null));

        JsonObject after = cluster.gpuJobs().get(0).getRaw();
        assertThat(after.getAsJsonObject("status").get("phase").getAsString()).isEqualTo("Running");
        assertThat(after.get("spec")).as("the spec as written").isEqualTo(stored.get("spec"));
        assertThat(after.getAsJsonObject("metadata").get("labels"))
                .isEqualTo(stored.getAsJsonObject("metadata").get("labels"));
        assertThat(after.getAsJsonObject("metadata").get("annotations"))
                .isEqualTo(stored.getAsJsonObject("metadata").get("annotations"));
    }

    @Test
    void teamsComeFromTheConfigMapAndAnInvalidEditKeepsTheLastGoodOnes() throws Exception {
        ConfigMapTeamsSource source =
                new ConfigMapTeamsSource(core, namespace.name(), Duration.ZERO, Clock.systemUTC());
        assertThat(source.teams()).as("no ConfigMap yet: no teams").isEmpty();

        V1ConfigMap map = new V1ConfigMap()
                .metadata(new V1ObjectMeta().name(ConfigMapTeamsSource.CONFIG_MAP))
                .data(Map.of(
                        ConfigMapTeamsSource.KEY,
                        "teams:\n  - name: team-a\n    guaranteedGpus: 20\n" + "    maxGpus: 30\n"));
        core.createNamespacedConfigMap(namespace.name(), map).execute();
        assertThat(source.teams()).containsOnlyKeys("team-a");
        assertThat(source.teams().get("team-a").guaranteedMilli()).isEqualTo(20_000);
        assertThat(source.teams().get("team-a").maxMilli()).isEqualTo(30_000);

        map.setData(Map.of(ConfigMapTeamsSource.KEY, "teams:\n  - name: team-a\n    guaranteedGpus: lots\n"));
        core.replaceNamespacedConfigMap(ConfigMapTeamsSource.CONFIG_MAP, namespace.name(), map)
                .execute();
        assertThat(source.teams().get("team-a").guaranteedMilli())
                .as("the invalid edit is refused")
                .isEqualTo(20_000);

        map.setData(Map.of(
                ConfigMapTeamsSource.KEY,
                "teams:\n  - name: team-a\n    guaranteedGpus: 8\n" + "  - name: team-b\n    guaranteedGpus: 4\n"));
        core.replaceNamespacedConfigMap(ConfigMapTeamsSource.CONFIG_MAP, namespace.name(), map)
                .execute();
        assertThat(source.teams()).containsOnlyKeys("team-a", "team-b");
        assertThat(source.teams().get("team-a").guaranteedMilli()).isEqualTo(8_000);
    }
}
