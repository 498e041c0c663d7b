package io.quotient.enforcer.core;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * One enforcement cycle: observe (GPU sample, process identities, pods) → snapshot → plan → apply
 * (signals); the report carries what each pod used of each GPU. SIGTERM first; SIGKILL once the
 * grace period has passed and the same process is still there. In dry-run mode each decision is
 * reported once and nothing is signalled.
 *
 * <p>Not thread-safe: one scheduler thread runs it.
 */
public final class EnforcementCycle {

    /** @param gracePeriod time between SIGTERM and SIGKILL */
    public record Settings(Duration gracePeriod, boolean dryRun) {}

    private final GpuReader gpus;
    private final SnapshotBuilder snapshots;
    private final KillPolicy policy;
    private final ProcessSignaller signaller;
    private final EnforcementListener listener;
    private final EnforcerHealth health;
    private final Settings settings;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final TerminationTracker terminations = new TerminationTracker();
    private final UsageAttribution usage = new UsageAttribution(new BudgetConventions());
    private Set<ProcessIdentity> announcedDryRun = Set.of();

    public EnforcementCycle(
            GpuReader gpus,
            SnapshotBuilder snapshots,
            KillPolicy policy,
            ProcessSignaller signaller,
            EnforcementListener listener,
            EnforcerHealth health,
            Settings settings,
            Clock clock,
            LongSupplier nanoTime) {
        this.gpus = gpus;
        this.snapshots = snapshots;
        this.policy = policy;
        this.signaller = signaller;
        this.listener = listener;
        this.health = health;
        this.settings = settings;
        this.clock = clock;
        this.nanoTime = nanoTime;
    }

    public CycleReport run() {
        GpuSample sample;
        try {
            sample = gpus.read();
        } catch (GpuUnavailableException e) {
            health.update(false, e.getMessage(), clock.instant());
            CycleReport report = CycleReport.unavailable(e.getMessage());
            listener.onCycle(report);
            return report;
        }
        health.update(true, "", clock.instant());
        List<String> problems = new ArrayList<>();
        NodeSnapshot snapshot = snapshots.build(sample, problems);
        forceKillOverdue(snapshot);
        EnforcementPlan plan = policy.plan(snapshot, terminations.terminating());
        apply(plan);
        problems.addAll(plan.problems());
        CycleReport report = new CycleReport(
                Optional.of(sample),
                new EnforcementPlan(plan.kills(), plan.usage(), problems),
                "",
                usage.attribute(snapshot));
        listener.onCycle(report);
        return report;
    }

    public EnforcerHealth health() {
        return health;
    }

    private void forceKillOverdue(NodeSnapshot snapshot) {
        Set<ProcessIdentity> listed =
                snapshot.processes().stream().map(ObservedProcess::identity).collect(Collectors.toSet());
        // A process that left the GPU list gave its memory back: the kill has done its job.
        terminations.retainListed(listed::contains);
        for (KillDecision overdue : terminations.takeDue(nanoTime.getAsLong())) {
            ProcessSignaller.Result result = signaller.kill(overdue.target());
            forgetIfChanged(overdue, result);
            listener.onKill(overdue, result, true);
        }
    }

    private void apply(EnforcementPlan plan) {
        if (settings.dryRun()) {
            Set<ProcessIdentity> decided = new HashSet<>();
            for (KillDecision decision : plan.kills()) {
                decided.add(decision.target());
                if (!announcedDryRun.contains(decision.target())) {
                    listener.onKill(decision, ProcessSignaller.Result.DRY_RUN, false);
                }
            }
            announcedDryRun = decided;
            return;
        }
        for (KillDecision decision : plan.kills()) {
            ProcessSignaller.Result result = signaller.terminate(decision.target());
            if (result == ProcessSignaller.Result.SIGNALLED) {
                terminations.begin(
                        decision, nanoTime.getAsLong() + settings.gracePeriod().toNanos());
            }
            forgetIfChanged(decision, result);
            listener.onKill(decision, result, false);
        }
    }

    private void forgetIfChanged(KillDecision decision, ProcessSignaller.Result result) {
        if (result == ProcessSignaller.Result.IDENTITY_CHANGED || result == ProcessSignaller.Result.GONE) {
            snapshots.forget(decision.target().pid());
        }
    }
}
