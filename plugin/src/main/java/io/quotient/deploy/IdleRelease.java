package io.quotient.deploy;

import io.quotient.core.idle.IdleState;
import io.quotient.core.idle.IdleVerdict;
import io.quotient.core.model.IdleAction;
import io.quotient.core.model.JobKind;
import io.quotient.deploy.port.IdleCondition;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.NotebookStopper;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one idle verdict to a job's record and the cluster: a warned job gets its {@code Idle} condition and an
 * {@code IdleWarning} Event (again only when what the warning says changes, not its figures); a job busy again loses
 * the warning; a released one gets an {@code IdleReleased} Event and condition, then a Kubeflow Notebook is stopped
 * through its annotation ({@link NotebookStopper}: never deleted, its controller removes the pod and the job ends
 * with it), and any other job is preempted and re-queued ({@code preempt}) or stopped, ending Failed ({@code stop}),
 * through the same eviction path as every preemption. A re-queued job waits as of its release
 * ({@link IdleVerdict#requeuedAt}, {@link JobRecord#queuedAt}), behind the jobs that waited for its GPUs. Every write is fenced by leadership, as the decisions are.
 */
public final class IdleRelease {

    private static final Logger LOG = LoggerFactory.getLogger(IdleRelease.class);
    static final String WARNING_EVENT = "IdleWarning";
    static final String RELEASED_EVENT = "IdleReleased";
    static final String STOPPED_PREFIX = "Stopped";

    private final JobRecordStore store;
    private final JobTransitions transitions;
    private final WorkloadGateway gateway;
    private final NotebookStopper notebooks;
    private final Clock clock;
    private final Duration stopGrace;

    public IdleRelease(
            JobRecordStore store,
            JobTransitions transitions,
            WorkloadGateway gateway,
            NotebookStopper notebooks,
            Clock clock,
            Duration stopGrace) {
        this.store = store;
        this.transitions = transitions;
        this.gateway = gateway;
        this.notebooks = notebooks;
        this.clock = clock;
        this.stopGrace = stopGrace;
    }

    /** Applies {@code verdict} to {@code record} (a placed job); returns whether GPUs were freed at once. */
    public boolean apply(JobRecord record, IdleVerdict verdict) {
        IdleCondition stored = record.status().idle();
        if (verdict.state() == IdleState.BUSY) {
            if (stored != null && IdleCondition.WARNING.equals(stored.reason())) {
                fence(record);
                store.updateStatus(record, record.status().withIdle(null));
                LOG.info(
                        "job {} of team {} on node {} is in use again: its idle warning is cleared",
                        record.id().name(),
                        record.id().team(),
                        record.status().node());
            }
            return false;
        }
        if (verdict.state() == IdleState.WARNED) {
            warn(record, verdict, stored);
            return false;
        }
        if (stored != null && IdleCondition.RELEASED.equals(stored.reason())) {
            return false; // released already (a Notebook whose pod has not gone yet)
        }
        return release(record, verdict);
    }

    private void warn(JobRecord record, IdleVerdict verdict, IdleCondition stored) {
        IdleCondition condition = new IdleCondition(IdleCondition.WARNING, verdict.explanation(), verdict.idleSince());
        if (stored != null
                && stored.reason().equals(condition.reason())
                && stored.since().equals(condition.since())
                && sameWords(stored.message(), condition.message())) {
            return;
        }
        fence(record);
        store.updateStatus(record, record.status().withIdle(condition));
        gateway.recordEvent(record.id(), WARNING_EVENT, verdict.explanation());
        LOG.info(
                "job {} of team {} on node {} idle: {}",
                record.id().name(),
                record.id().team(),
                record.status().node(),
                verdict.explanation());
    }

    private boolean release(JobRecord record, IdleVerdict verdict) {
        IdleCondition condition = new IdleCondition(IdleCondition.RELEASED, verdict.explanation(), verdict.idleSince());
        LOG.info(
                "releasing the GPUs of idle job {} of team {} on node {}: {}",
                record.id().name(),
                record.id().team(),
                record.status().node(),
                verdict.explanation());
        if (verdict.kind() == JobKind.NOTEBOOK && governsPod(record)) {
            fence(record);
            // the condition is written once the Notebook is stopped: a failed stop is tried again on the next pass
            if (!notebooks.stop(record, clock.instant())) {
                LOG.warn(
                        "job {} of team {} on node {}: no Notebook found for its pod; it is left running",
                        record.id().name(),
                        record.id().team(),
                        record.status().node());
                return false;
            }
            store.updateStatus(record, record.status().withIdle(condition));
            gateway.recordEvent(record.id(), RELEASED_EVENT, verdict.explanation() + ": its Notebook is stopped");
            return false; // the GPUs free when the notebook controller has removed the pod
        }
        fence(record);
        gateway.recordEvent(record.id(), RELEASED_EVENT, verdict.explanation());
        if (verdict.action() == IdleAction.PREEMPT) {
            // its place in the queue counts from now (the core's requeuedAt), written with the Preempted status in
            // one write: an eviction an interruption cuts short is completed with the job's new place
            JobRecord requeued = verdict.requeuedAt().map(record::withQueuedAt).orElse(record);
            JobRecord pending = transitions.preempt(requeued, "idle: " + verdict.explanation(), DecisionCause.IDLE);
            fence(pending);
            store.updateStatus(pending, pending.status().withIdle(condition));
            return true;
        }
        String why = STOPPED_PREFIX + ": idle: " + verdict.explanation();
        store.updateStatus(
                record, record.status().withPhase(JobPhase.FAILED, why).withIdle(condition));
        gateway.stop(record.id(), stopGrace);
        transitions.releaseGpusOf(record);
        return true;
    }

    /** Whether releasing the job puts it back in the queue: a preempted job, not a stopped one or a Notebook. */
    static boolean requeues(JobRecord record, IdleAction action) {
        return action == IdleAction.PREEMPT && !(record.spec().kind() == JobKind.NOTEBOOK && governsPod(record));
    }

    private static boolean governsPod(JobRecord record) {
        return record.submission().adopted() && record.submission().workload().isPod();
    }

    private void fence(JobRecord record) {
        if (!transitions.leads()) {
            throw new LeadershipLostException(record.id(), "the idle decision");
        }
    }

    /** Whether two sentences say the same but for their figures ("idle for 21 min" and "idle for 22 min"). */
    static boolean sameWords(String a, String b) {
        return Objects.equals(a.replaceAll("\\d+", "#"), b.replaceAll("\\d+", "#"));
    }
}
