package io.quotient.enforcer.core;

import java.util.Optional;

/**
 * A GPU process joined with who it is and, when it runs in a managed container, that container.
 * {@code owner} is empty for host processes and for pods without a GPU memory budget: those are
 * never killed.
 */
public record ObservedProcess(GpuProcess process, ProcessIdentity identity, Optional<ManagedContainer> owner) {

    public boolean hasKnownUsage() {
        return process.usedBytes() >= 0;
    }
}
