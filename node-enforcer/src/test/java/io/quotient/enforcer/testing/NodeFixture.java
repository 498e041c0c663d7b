package io.quotient.enforcer.testing;

import io.quotient.enforcer.core.BudgetConventions;
import io.quotient.enforcer.core.ContainerInfo;
import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementCycle;
import io.quotient.enforcer.core.EnforcementListener;
import io.quotient.enforcer.core.EnforcerHealth;
import io.quotient.enforcer.core.GpuReader;
import io.quotient.enforcer.core.KillDecision;
import io.quotient.enforcer.core.KillPolicy;
import io.quotient.enforcer.core.PodDirectory;
import io.quotient.enforcer.core.PodInfo;
import io.quotient.enforcer.core.PolicySettings;
import io.quotient.enforcer.core.ProcessSignaller;
import io.quotient.enforcer.core.SnapshotBuilder;
import io.quotient.enforcer.proc.IdentityCheckingSignaller;
import io.quotient.enforcer.proc.ProcFs;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node for tests: pods kept in memory, real processes put into their containers through a proc
 * fixture, and the production cycle wired to a GPU reader (the real binding over the fake NVML).
 */
public final class NodeFixture implements PodDirectory, EnforcementListener {

    /** A kill as the listener saw it. */
    public record Kill(KillDecision decision, ProcessSignaller.Result result, boolean forced) {}

    private final Map<String, PodInfo> pods = new ConcurrentHashMap<>();
    private final ProcFixture proc;
    public final List<Kill> kills = new CopyOnWriteArrayList<>();
    public final List<CycleReport> reports = new CopyOnWriteArrayList<>();
    public final EnforcerHealth health = new EnforcerHealth();

    public NodeFixture(ProcFixture proc) {
        this.proc = proc;
    }

    /** Puts a running process into a new pod's only container, with these pod annotations and env. */
    public PodInfo podWith(Process process, Map<String, String> annotations, Map<String, String> env) {
        return podWith(process.pid(), annotations, env);
    }

    public PodInfo podWith(long pid, Map<String, String> annotations, Map<String, String> env) {
        String uid = UUID.randomUUID().toString();
        String containerId = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
        PodInfo pod = new PodInfo(
                uid,
                "team-a",
                "pod-" + pid,
                Map.of(),
                annotations,
                List.of(new ContainerInfo("main", containerId, env, false)));
        pods.put(uid, pod);
        proc.map(pid, ProcFixture.podCgroup(uid, containerId));
        return pod;
    }

    /** A process outside any pod. */
    public void hostProcess(Process process) {
        proc.map(process.pid(), ProcFixture.hostCgroup());
    }

    public EnforcementCycle cycle(GpuReader gpus, Duration grace, boolean dryRun) {
        ProcFs procFs = new ProcFs(proc.root());
        return new EnforcementCycle(
                gpus,
                new SnapshotBuilder(procFs, this, new BudgetConventions()),
                new KillPolicy(PolicySettings.DEFAULTS),
                new IdentityCheckingSignaller(procFs),
                this,
                health,
                new EnforcementCycle.Settings(grace, dryRun),
                Clock.systemUTC(),
                System::nanoTime);
    }

    @Override
    public Optional<PodInfo> byUid(String uid) {
        return Optional.ofNullable(pods.get(uid));
    }

    @Override
    public Collection<PodInfo> all() {
        return pods.values();
    }

    @Override
    public void onKill(KillDecision decision, ProcessSignaller.Result result, boolean forced) {
        kills.add(new Kill(decision, result, forced));
    }

    @Override
    public void onCycle(CycleReport report) {
        reports.add(report);
    }
}
