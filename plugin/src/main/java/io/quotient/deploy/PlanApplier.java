package io.quotient.deploy;

import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a plan's actions in order. A failure stops the plan there (later actions may rely on earlier ones,
 * e.g. a placement on the evictions before it); what was recorded stays, and the next reconciliation and
 * re-queue finish or redo the rest from the records. A replica that loses the leadership in the middle of a plan
 * stops there too (checked before each action, and by {@link JobTransitions} right before each write): the new
 * leader decides from the records, so nothing is decided twice.
 */
public final class PlanApplier {

    private static final Logger LOG = LoggerFactory.getLogger(PlanApplier.class);

    private final JobRecordStore store;
    private final JobTransitions transitions;
    private final LeadershipGate leadership;
    private final WaitNotes notes;

    public PlanApplier(JobRecordStore store, JobTransitions transitions, LeadershipGate leadership) {
        this(store, transitions, leadership, new WaitNotes());
    }

    /** @param notes what a waiting job's reason says besides the scheduler's why (an idle job it waits for) */
    public PlanApplier(JobRecordStore store, JobTransitions transitions, LeadershipGate leadership, WaitNotes notes) {
        this.store = store;
        this.transitions = transitions;
        this.leadership = leadership;
        this.notes = notes;
    }

    /** Returns whether every action was applied. */
    public boolean apply(Plan plan, DecisionCause cause) {
        for (PlanAction action : plan.actions()) {
            if (!leadership.isLeader()) {
                LOG.warn(
                        "this replica lost the leadership while applying a plan; stopping before {} for job {}: the"
                                + " new leader decides it from the records",
                        action.getClass().getSimpleName(),
                        action.job());
                return false;
            }
            try {
                applyOne(action, cause);
            } catch (LeadershipLostException e) {
                LOG.warn(
                        "applying the plan stopped at {} for job {}: {}",
                        action.getClass().getSimpleName(),
                        action.job(),
                        e.getMessage());
                return false;
            } catch (RuntimeException e) {
                LOG.warn(
                        "applying the plan stopped at {} for job {}: {}. The records keep what was decided; the next"
                                + " re-queue completes it.",
                        action.getClass().getSimpleName(),
                        action.job(),
                        e.toString());
                return false;
            }
        }
        return true;
    }

    private void applyOne(PlanAction action, DecisionCause cause) {
        Optional<JobRecord> found = store.find(action.job());
        if (found.isEmpty()) {
            LOG.info(
                    "skipping {} for job {}: its record was deleted meanwhile",
                    action.getClass().getSimpleName(),
                    action.job());
            return;
        }
        JobRecord record = found.get();
        if (action instanceof PlanAction.Place p) {
            if (!record.phase().holdsCapacity()) {
                transitions.place(record, p.placement(), cause);
            }
        } else if (action instanceof PlanAction.Evict e) {
            if (record.phase().holdsCapacity()) {
                transitions.preempt(record, e.reason(), cause);
            }
        } else if (action instanceof PlanAction.KeepPending k) {
            if (record.phase().waiting()) {
                transitions.keepPending(record, notes.withNote(record.id(), k.reason()));
            }
        } else if (action instanceof PlanAction.Move m) {
            move(record, m, cause);
        } else if (action instanceof PlanAction.Grow g) {
            LOG.info(
                    "growing elastic job {} of team {} from {} to {} replicas",
                    record.id().name(),
                    record.id().team(),
                    g.from().replicas().size(),
                    g.to().replicas().size());
            transitions.grow(record, g.from(), g.to(), cause);
        }
    }

    private void move(JobRecord record, PlanAction.Move move, DecisionCause cause) {
        LOG.info(
                "moving job {} of team {} from node {} to node {}",
                record.id().name(),
                record.id().team(),
                move.from().node(),
                move.to().node());
        transitions.move(record, move.from(), move.to(), cause);
    }
}
