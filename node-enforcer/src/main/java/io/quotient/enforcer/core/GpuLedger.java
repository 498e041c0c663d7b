package io.quotient.enforcer.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The memory accounts of the managed containers on one GPU during planning: it applies kills to
 * its own figures as it decides them, so each next decision sees the memory the earlier ones free.
 */
final class GpuLedger {

    /** One container on this GPU: its budget here and its live, not-yet-doomed processes (largest first). */
    static final class Account {
        final ManagedContainer container;
        final ResolvedBudget budget;
        final List<ObservedProcess> processes = new ArrayList<>();
        long used;

        Account(ManagedContainer container, ResolvedBudget budget) {
            this.container = container;
            this.budget = budget;
        }

        long loan() {
            return used - budget.requestBytes();
        }

        long shortfall() {
            return Math.max(0, budget.requestBytes() - used);
        }
    }

    private final GpuDevice gpu;
    private final Map<ContainerRef, Account> accounts;
    private final Set<ProcessIdentity> doomed;
    private final List<KillDecision> decisions = new ArrayList<>();
    private long free;

    private GpuLedger(GpuDevice gpu, Map<ContainerRef, Account> accounts, Set<ProcessIdentity> doomed, long free) {
        this.gpu = gpu;
        this.accounts = accounts;
        this.doomed = doomed;
        this.free = free;
    }

    /**
     * Opens the ledger of {@code gpu}. Processes in {@code doomed} (being terminated, or planned for a kill
     * on another GPU this cycle) count as freed memory; processes without a managed owner or without a
     * known usage only count through the GPU's free memory and are never candidates.
     */
    static GpuLedger open(
            GpuDevice gpu,
            List<ObservedProcess> processes,
            Map<ContainerRef, Account> accounts,
            Set<ProcessIdentity> doomed) {
        long free = gpu.freeBytes();
        for (ObservedProcess process : processes) {
            if (!process.hasKnownUsage()) {
                continue;
            }
            if (doomed.contains(process.identity())) {
                free += process.process().usedBytes();
            } else if (process.owner().isPresent()
                    && accounts.containsKey(process.owner().get().ref())) {
                Account account = accounts.get(process.owner().get().ref());
                account.processes.add(process);
                account.used += process.process().usedBytes();
            }
        }
        for (Account account : accounts.values()) {
            account.processes.sort(
                    Comparator.comparingLong((ObservedProcess p) -> p.process().usedBytes())
                            .reversed());
        }
        return new GpuLedger(gpu, new LinkedHashMap<>(accounts), doomed, free);
    }

    List<ContainerUsage> usage() {
        return accounts.values().stream()
                .map(a -> new ContainerUsage(
                        a.container.ref(), gpu.uuid(), a.used, a.budget.requestBytes(), a.budget.limitBytes()))
                .toList();
    }

    /** Kills the largest processes of each container above its limit until it is within it. */
    void enforceLimits() {
        for (Account account : accounts.values()) {
            while (account.used > account.budget.limitBytes() && !account.processes.isEmpty()) {
                String why = account.container.ref() + " uses " + ByteSizes.format(account.used) + " on " + gpu.uuid()
                        + ", above its limit of " + ByteSizes.format(account.budget.limitBytes());
                kill(account, KillReason.LIMIT_EXCEEDED, why);
            }
        }
    }

    /**
     * When the GPU is nearly full and owners miss part of their requests, kills borrowers, largest loan
     * first, until the free memory covers what the owners miss. Does nothing while owners can still grow.
     */
    void reclaimLoans(PolicySettings settings) {
        long shortfall = shortfall();
        if (shortfall == 0 || free >= Math.min(shortfall, settings.headroomBytes(gpu.totalBytes()))) {
            return;
        }
        while (free < shortfall) {
            Account borrower = largestBorrower();
            if (borrower == null) {
                return;
            }
            String why =
                    borrower.container.ref() + " holds " + ByteSizes.format(borrower.loan()) + " above its request of "
                            + ByteSizes.format(borrower.budget.requestBytes()) + " on " + gpu.uuid() + "; owners miss "
                            + ByteSizes.format(shortfall) + " of their requests and only " + ByteSizes.format(free)
                            + " is free";
            kill(borrower, KillReason.LOAN_RECLAIMED, why);
            shortfall = shortfall();
        }
    }

    List<KillDecision> decisions() {
        return decisions;
    }

    private long shortfall() {
        return accounts.values().stream().mapToLong(Account::shortfall).sum();
    }

    private Account largestBorrower() {
        return accounts.values().stream()
                .filter(a -> a.loan() > 0 && !a.processes.isEmpty())
                .max(Comparator.comparingLong(Account::loan))
                .orElse(null);
    }

    private void kill(Account account, KillReason reason, String why) {
        ObservedProcess victim = account.processes.remove(0);
        long bytes = victim.process().usedBytes();
        account.used -= bytes;
        free += bytes;
        doomed.add(victim.identity());
        decisions.add(new KillDecision(victim.identity(), gpu.uuid(), account.container.ref(), reason, bytes, why));
    }
}
