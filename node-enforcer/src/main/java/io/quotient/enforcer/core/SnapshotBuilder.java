package io.quotient.enforcer.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Joins a GPU sample with processes' identities and pods' budgets into a {@link NodeSnapshot}.
 *
 * <p>Identities are remembered while their PID stays in the GPU process list, so a steady node costs
 * no /proc reads; a PID that leaves the list is forgotten, and every kill re-reads /proc anyway.
 */
public final class SnapshotBuilder {

    private final ProcessInspector inspector;
    private final PodDirectory pods;
    private final BudgetConventions conventions;
    private Map<Integer, ProcessIdentity> identities = new HashMap<>();

    public SnapshotBuilder(ProcessInspector inspector, PodDirectory pods, BudgetConventions conventions) {
        this.inspector = inspector;
        this.pods = pods;
        this.conventions = conventions;
    }

    public NodeSnapshot build(GpuSample sample, List<String> problems) {
        List<PodInfo> podList = List.copyOf(pods.all());
        Map<String, ManagedContainer> managed = managedContainers(podList, problems);
        Map<Integer, ProcessIdentity> seen = new HashMap<>();
        List<ObservedProcess> observed = new ArrayList<>(sample.processes().size());
        for (GpuProcess process : sample.processes()) {
            ProcessIdentity identity = seen.computeIfAbsent(process.pid(), this::identify);
            if (identity == null) {
                continue; // exited since the driver listed it
            }
            Optional<ManagedContainer> owner = identity.inPod()
                    ? Optional.ofNullable(managed.get(identity.podUid() + "/" + identity.containerId()))
                    : Optional.empty();
            observed.add(new ObservedProcess(process, identity, owner));
        }
        identities = seen;
        return new NodeSnapshot(sample, observed, List.copyOf(managed.values()), podList);
    }

    /** Drops what is remembered of a PID (its identity was found changed). */
    public void forget(int pid) {
        identities.remove(pid);
    }

    private ProcessIdentity identify(int pid) {
        ProcessIdentity known = identities.get(pid);
        return known != null ? known : inspector.identify(pid).orElse(null);
    }

    /** Managed containers of this node's pods, keyed by "podUid/containerId". */
    private Map<String, ManagedContainer> managedContainers(List<PodInfo> podList, List<String> problems) {
        Map<String, ManagedContainer> managed = new HashMap<>();
        for (PodInfo pod : podList) {
            for (ContainerInfo container : pod.containers()) {
                if (container.containerId().isEmpty()) {
                    continue;
                }
                try {
                    conventions
                            .budgetFor(pod, container)
                            .ifPresent(budget -> managed.put(
                                    pod.uid() + "/" + container.containerId(),
                                    new ManagedContainer(
                                            new ContainerRef(
                                                    pod.namespace(),
                                                    pod.name(),
                                                    pod.uid(),
                                                    container.name(),
                                                    container.containerId()),
                                            budget,
                                            conventions.boundGpus(container))));
                } catch (InvalidBudgetException e) {
                    problems.add(pod.qualifiedName() + "[" + container.name() + "] is not enforced: " + e.getMessage());
                }
            }
        }
        return managed;
    }
}
