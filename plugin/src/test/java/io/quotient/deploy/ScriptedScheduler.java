package io.quotient.deploy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A scheduler whose plans the test writes, to test how the application layer applies plans (order, crashes,
 * recovery) independently of the core's decisions. Keeps the snapshots it was given.
 */
final class ScriptedScheduler implements Scheduler {

    BiFunction<SchedulingSnapshot, JobSpec, Plan> onSchedule = (s, j) -> Plan.EMPTY;

    /** From now on every new job is placed there, and nothing else happens. */
    void placeEachAt(String node, List<Integer> gpus, int milliPerGpu, QuotaState quotaState) {
        onSchedule = (s, spec) -> new Plan(
                List.of(new PlanAction.Place(PlanApplicationTest.at(s, spec, node, gpus, milliPerGpu, quotaState))));
    }

    Function<SchedulingSnapshot, Plan> onPending = s -> Plan.EMPTY;
    Function<SchedulingSnapshot, Plan> onRebalance = s -> Plan.EMPTY;
    Function<SchedulingSnapshot, Plan> onGrow = s -> Plan.EMPTY;
    final List<SchedulingSnapshot> snapshots = new ArrayList<>();

    /** Whole GPUs or a fraction, as written; enough validation for scripted plans. */
    static final RequestValidator SIMPLE_VALIDATOR = (input, teams) -> {
        GpuRequest gpu = input.gpu().count() != null
                ? new GpuRequest.WholeGpus(input.gpu().count())
                : input.gpu().fraction() != null
                        ? new GpuRequest.Fraction(
                                input.gpu().fraction().movePointRight(3).intValueExact(),
                                input.gpu().fraction().movePointRight(3).intValueExact(),
                                1)
                        : new GpuRequest.None();
        return new JobSpec(
                new JobId(input.team(), input.name()),
                gpu,
                0,
                0,
                null,
                0,
                !Boolean.FALSE.equals(input.runtime().preemptible()),
                Duration.ZERO);
    };

    @Override
    public Plan schedule(SchedulingSnapshot snapshot, JobSpec job) {
        snapshots.add(snapshot);
        return onSchedule.apply(snapshot, job);
    }

    @Override
    public Plan schedulePending(SchedulingSnapshot snapshot) {
        snapshots.add(snapshot);
        return onPending.apply(snapshot);
    }

    @Override
    public Plan rebalance(SchedulingSnapshot snapshot, double maxMovedShare) {
        snapshots.add(snapshot);
        return onRebalance.apply(snapshot);
    }

    @Override
    public Plan grow(SchedulingSnapshot snapshot) {
        return onGrow.apply(snapshot);
    }
}
