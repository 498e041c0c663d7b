package io.quotient.enforcer.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides which GPU processes to kill, GPU by GPU: first processes of containers above their limit,
 * then, when owners need memory they are guaranteed, borrowers above their request, largest loan first.
 * Only processes of managed containers are ever chosen. Pure: the same snapshot gives the same plan.
 */
public final class KillPolicy {

    private final PolicySettings settings;

    public KillPolicy(PolicySettings settings) {
        this.settings = settings;
    }

    /**
     * @param terminating processes already sent SIGTERM in an earlier cycle: their memory counts as
     *     being freed, so the same shortfall does not cost a second borrower
     */
    public EnforcementPlan plan(NodeSnapshot snapshot, Set<ProcessIdentity> terminating) {
        Set<ProcessIdentity> doomed = new HashSet<>(terminating);
        Map<String, List<ObservedProcess>> byGpu = snapshot.processes().stream()
                .collect(Collectors.groupingBy(p -> p.process().gpuUuid()));
        List<KillDecision> kills = new ArrayList<>();
        List<ContainerUsage> usage = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (GpuDevice gpu : snapshot.gpus().devices()) {
            List<ObservedProcess> processes = byGpu.getOrDefault(gpu.uuid(), List.of());
            Map<ContainerRef, GpuLedger.Account> accounts = accounts(gpu, processes, snapshot.managed(), problems);
            GpuLedger ledger = GpuLedger.open(gpu, processes, accounts, doomed);
            usage.addAll(ledger.usage());
            ledger.enforceLimits();
            ledger.reclaimLoans(settings);
            kills.addAll(ledger.decisions());
        }
        return new EnforcementPlan(kills, usage, problems);
    }

    /** Accounts of the managed containers present on this GPU: running a process there, or bound to it. */
    private Map<ContainerRef, GpuLedger.Account> accounts(
            GpuDevice gpu, List<ObservedProcess> processes, List<ManagedContainer> managed, List<String> problems) {
        Map<ContainerRef, ManagedContainer> present = new LinkedHashMap<>();
        for (ManagedContainer container : managed) {
            if (container.boundGpus().contains(gpu.uuid())) {
                present.put(container.ref(), container);
            }
        }
        for (ObservedProcess process : processes) {
            process.owner().ifPresent(owner -> present.putIfAbsent(owner.ref(), owner));
        }
        Map<ContainerRef, GpuLedger.Account> accounts = new LinkedHashMap<>();
        for (ManagedContainer container : present.values()) {
            try {
                accounts.put(
                        container.ref(),
                        new GpuLedger.Account(container, container.budget().resolve(gpu.totalBytes())));
            } catch (InvalidBudgetException e) {
                problems.add(container.ref() + " is not enforced on " + gpu.uuid() + ": " + e.getMessage());
            }
        }
        return accounts;
    }
}
