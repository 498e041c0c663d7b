package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.scheduling.QuotaRelabel;
import io.quotient.core.scheduling.QuotaStates;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.StaleRecordException;
import io.quotient.deploy.port.TeamsSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the quota state stored with placed jobs ({@code status.quotaState}) equal to the recomputed one. A job's
 * state is written at placement, but whether it is in quota depends on what its team holds later (the smallest set
 * of its jobs covering the guarantee, {@link QuotaStates}); decisions always recompute it, the stored label only
 * tells users and tools. Run by the leader at the end of each re-queue pass: observe the records, plan the labels
 * that differ, write at most {@code maxPerPass} of them (the cover may reshuffle many jobs at once, and each is one
 * API call under the decision lock); the rest follow in the next passes.
 */
public final class QuotaLabels {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaLabels.class);

    private final JobRecordStore store;
    private final TeamsSource teams;
    private final JobTransitions transitions;
    private final int maxPerPass;

    public QuotaLabels(JobRecordStore store, TeamsSource teams, JobTransitions transitions, int maxPerPass) {
        if (maxPerPass < 1) {
            throw new IllegalArgumentException("quotient.schedules.requeue-max-relabels is " + maxPerPass
                    + ": give 1 or more (labels rewritten per re-queue pass)");
        }
        this.store = store;
        this.teams = teams;
        this.transitions = transitions;
        this.maxPerPass = maxPerPass;
    }

    /** Rewrites stale labels, at most {@code maxPerPass}; returns how many were written. */
    public int refresh() {
        Map<JobId, JobRecord> holding = new LinkedHashMap<>();
        store.listAll().stream().filter(r -> r.phase().holdsCapacity()).forEach(r -> holding.put(r.id(), r));
        List<PlacedJob> placed = holding.values().stream().map(Placements::of).toList();
        List<QuotaRelabel> plan = QuotaStates.stale(placed, teams.teams(), maxPerPass);
        int written = 0;
        for (QuotaRelabel relabel : plan) {
            try {
                transitions.relabel(holding.get(relabel.job()), relabel.state());
                written++;
            } catch (StaleRecordException e) {
                // the record changed meanwhile (a phase followed, a deploy finished): the next pass looks again
                LOG.info("quota state of job {} not rewritten: {}", relabel.job(), e.getMessage());
            } catch (LeadershipLostException e) {
                LOG.warn("stopped rewriting quota states: {}", e.getMessage());
                break;
            }
        }
        return written;
    }
}
