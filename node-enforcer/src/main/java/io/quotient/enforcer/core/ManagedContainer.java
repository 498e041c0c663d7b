package io.quotient.enforcer.core;

import java.util.Set;

/**
 * A container whose GPU memory the enforcer keeps within its budget. {@code boundGpus} are the GPU
 * UUIDs its pod was bound to ({@code NVIDIA_VISIBLE_DEVICES}), so its guarantee is held for it on
 * those GPUs even before it allocates anything.
 */
public record ManagedContainer(ContainerRef ref, MemoryBudget budget, Set<String> boundGpus) {

    public ManagedContainer {
        boundGpus = Set.copyOf(boundGpus);
    }
}
