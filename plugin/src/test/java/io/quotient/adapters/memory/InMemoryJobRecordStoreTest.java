package io.quotient.adapters.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.JobFixtures;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.StaleRecordException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryJobRecordStoreTest {

    private final InMemoryJobRecordStore store = new InMemoryJobRecordStore();
    private final Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void createsOnceAndRefusesTheSameNameAgain() {
        JobRecord created = store.create(JobFixtures.pendingRecord("team-a", "train", 2, now));
        assertThat(created.version()).isNotNull();

        assertThatThrownBy(() -> store.create(JobFixtures.pendingRecord("team-a", "train", 4, now)))
                .isInstanceOf(JobAlreadyExistsException.class)
                .hasMessageContaining("already exists");
        assertThat(store.find(new JobId("team-a", "train")))
                .hasValueSatisfying(
                        r -> assertThat(r.submission().request().gpu().count()).isEqualTo(2));
        store.create(JobFixtures.pendingRecord("team-b", "train", 1, now));
        assertThat(store.list("team-a")).extracting(JobRecord::id).containsExactly(new JobId("team-a", "train"));
        assertThat(store.listAll()).hasSize(2);
    }

    @Test
    void refusesAStatusWrittenFromAStaleRead() {
        JobRecord read = store.create(JobFixtures.pendingRecord("team-a", "train", 1, now));
        JobStatus placed = JobStatus.placed("node-1", List.of(new GpuBinding(0, null, 1.0)), QuotaState.IN_QUOTA, now);

        JobRecord updated = store.updateStatus(read, placed);
        assertThat(updated.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(updated.version()).isNotEqualTo(read.version());

        assertThatThrownBy(() -> store.updateStatus(read, JobStatus.pending("again")))
                .isInstanceOf(StaleRecordException.class);
        assertThat(store.find(read.id()).orElseThrow().phase()).isEqualTo(JobPhase.PLACED);

        assertThat(store.delete(read.id())).isTrue();
        assertThat(store.delete(read.id())).isFalse();
        assertThatThrownBy(() -> store.updateStatus(updated, JobStatus.pending("gone")))
                .isInstanceOf(StaleRecordException.class)
                .hasMessageContaining("deleted");
    }
}
