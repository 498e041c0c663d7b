package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.placement.WorkloadLearner;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Feeds the scheduler's {@link WorkloadLearner} with the jobs it sees in its snapshots, running and waiting, each
 * once: after a restart the running jobs teach it what the cluster runs, and every submission is counted when it
 * first appears (a job that waits and is decided again is not counted again). New jobs are taken in the order
 * they started or were queued (then by id), so the same snapshots teach the same workload.
 *
 * <p>Memory is bounded: the ids of the last {@link #REMEMBERED} jobs seen; a job whose id was forgotten is counted
 * again when it reappears after missing from a snapshot, which takes more jobs than a cluster runs at once.
 *
 * <p>A job of the last snapshot was counted then: consecutive snapshots share most of their jobs, mostly in the same
 * order, so each job is first matched against the last snapshot's next few ({@link PreviousSnapshot}) and only the
 * others are looked up among the remembered ids (a lookup in a table of thousands of ids for every running and
 * waiting job, at every decision, was most of the cost of counting).
 */
public final class ObservedJobs {

    /** Ids remembered to count a job once: more than the jobs a large cluster runs and queues at once. */
    static final int REMEMBERED = 65_536;

    private final WorkloadLearner learner;
    private final Set<JobId> seen = new LinkedHashSet<>();
    private PreviousSnapshot previous = PreviousSnapshot.NONE;

    public ObservedJobs(WorkloadLearner learner) {
        if (learner == null) {
            throw new IllegalArgumentException("observed jobs need a workload learner to feed");
        }
        this.learner = learner;
    }

    public WorkloadLearner learner() {
        return learner;
    }

    /** Counts the jobs of the snapshot, and the job being decided, that were not counted before. */
    public synchronized void observe(SchedulingSnapshot snapshot, JobSpec decided) {
        record New(JobSpec spec, Instant at, int milliPerGpu) {}
        List<New> fresh = new ArrayList<>();
        JobId[] ids = new JobId[snapshot.placed().size() + snapshot.pending().size()];
        PreviousSnapshot.Walk last = previous.walk(seen);
        int i = 0;
        for (PlacedJob p : snapshot.placed()) {
            JobId id = p.spec().id();
            ids[i++] = id;
            if (!last.seen(id)) {
                fresh.add(new New(p.spec(), p.startedAt(), p.milliPerGpu()));
            }
        }
        for (PendingJob p : snapshot.pending()) {
            JobId id = p.spec().id();
            ids[i++] = id;
            if (!last.seen(id)) {
                fresh.add(new New(p.spec(), p.queuedAt(), 0));
            }
        }
        previous = new PreviousSnapshot(ids);
        fresh.sort(Comparator.comparing(New::at)
                .thenComparing(n -> n.spec().id().team())
                .thenComparing(n -> n.spec().id().name()));
        if (decided != null && !seen.contains(decided.id())) {
            fresh.add(new New(decided, snapshot.now(), 0));
        }
        for (New n : fresh) {
            if (seen.add(n.spec().id())) {
                shape(n.spec(), n.milliPerGpu(), snapshot.nodes()).ifPresent(learner::observe);
            }
        }
        for (Iterator<JobId> it = seen.iterator(); seen.size() > REMEMBERED; ) {
            it.next();
            it.remove();
        }
    }

    /**
     * A job's demand on one node in GPU milli. A MiB request takes the share it holds where it runs, or before it
     * runs the least it would take on any of the nodes; none where no node can hold it.
     */
    private static Optional<ResourceDemand> shape(JobSpec job, int milliPerGpu, List<NodeSpec> nodes) {
        ResourceDemand demand = Demands.of(job);
        if (demand.gpuMemoryMib() <= 0) {
            return Optional.of(demand);
        }
        int milli = milliPerGpu > 0
                ? milliPerGpu
                : nodes.stream()
                        .filter(n -> n.gpuCount() >= demand.gpuCount() && demand.allowsModel(n.gpuModel()))
                        .mapToInt(demand::milliOn)
                        .min()
                        .orElse(Integer.MAX_VALUE);
        return milli > ResourceDemand.WHOLE
                ? Optional.empty()
                : Optional.of(ResourceDemand.gpus(
                        demand.cpuMilli(), demand.memoryMib(), demand.gpuCount(), milli, demand.allowedModels()));
    }
}
