package io.quotient.enforcer.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KillPolicyTest {

    private static final long GIB = 1L << 30;
    private static final String GPU = "GPU-0";
    private final KillPolicy policy = new KillPolicy(PolicySettings.DEFAULTS);
    private final List<ObservedProcess> processes = new ArrayList<>();
    private final List<ManagedContainer> managed = new ArrayList<>();
    private int nextPid = 100;

    private ManagedContainer container(String name, long requestGib, long limitGib, String... bound) {
        ManagedContainer container = new ManagedContainer(
                new ContainerRef("ns", name, "uid-" + name, "main", "cid-" + name),
                new MemoryBudget(
                        new MemoryAmount.Bytes(requestGib * GIB), new MemoryAmount.Bytes(limitGib * GIB), "test"),
                Set.of(bound));
        managed.add(container);
        return container;
    }

    private ProcessIdentity run(ManagedContainer owner, double gib) {
        ProcessIdentity identity = new ProcessIdentity(
                nextPid++,
                1,
                owner == null ? "" : owner.ref().podUid(),
                owner == null ? "" : owner.ref().containerId());
        processes.add(new ObservedProcess(
                new GpuProcess(identity.pid(), GPU, (long) (gib * GIB)), identity, Optional.ofNullable(owner)));
        return identity;
    }

    private EnforcementPlan plan(long totalGib) {
        long used = processes.stream()
                .mapToLong(p -> Math.max(0, p.process().usedBytes()))
                .sum();
        GpuDevice gpu = GpuDevice.whole(0, GPU, "T4", totalGib * GIB, used, totalGib * GIB - used);
        return policy.plan(
                new NodeSnapshot(new GpuSample("550", List.of(gpu), List.of()), processes, managed), Set.of());
    }

    private static List<Integer> killedPids(EnforcementPlan plan) {
        return plan.kills().stream().map(k -> k.target().pid()).toList();
    }

    @Test
    void killsOnlyTheProcessOverItsLimitLargestFirst() {
        ManagedContainer greedy = container("greedy", 2, 4);
        ManagedContainer fine = container("fine", 2, 4);
        run(greedy, 1);
        ProcessIdentity big = run(greedy, 3.5);
        run(fine, 3.9);

        EnforcementPlan plan = plan(16);

        assertThat(plan.kills()).singleElement().satisfies(kill -> {
            assertThat(kill.target()).isEqualTo(big);
            assertThat(kill.reason()).isEqualTo(KillReason.LIMIT_EXCEEDED);
            assertThat(kill.explanation()).contains("ns/greedy[main]", "4.50 GiB", "limit of 4.00 GiB");
        });
    }

    @Test
    void borrowersKeepTheirLoanWhileOwnersCanStillGrow() {
        ManagedContainer owner = container("owner", 8, 8);
        ManagedContainer borrower = container("borrower", 4, 12);
        run(owner, 1);
        run(borrower, 11); // 7 GiB loaned; 4 GiB free > 5 % headroom

        EnforcementPlan plan = plan(16);

        assertThat(plan.kills()).isEmpty();
        assertThat(plan.usage())
                .filteredOn(u -> u.container().equals(borrower.ref()))
                .singleElement()
                .satisfies(u -> assertThat(u.loanedBytes()).isEqualTo(7 * GIB));
    }

    @Test
    void whenTheGpuFillsUpTheLargestLoanGoesFirstAndOnlyAsMuchAsOwnersNeed() {
        ManagedContainer owner = container("owner", 8, 8);
        ManagedContainer small = container("small-loan", 2, 6);
        ManagedContainer large = container("large-loan", 2, 8);
        run(owner, 4.5);
        run(small, 4); // loan 2
        ProcessIdentity largeLoan = run(large, 7); // loan 5; GPU: 15.5 of 16 used, owner misses 3.5

        EnforcementPlan plan = plan(16);

        assertThat(plan.kills()).singleElement().satisfies(kill -> {
            assertThat(kill.target()).isEqualTo(largeLoan);
            assertThat(kill.reason()).isEqualTo(KillReason.LOAN_RECLAIMED);
            assertThat(kill.explanation()).contains("large-loan", "owners miss");
        });
    }

    @Test
    void aGuaranteeCountsForABoundContainerBeforeItAllocates() {
        ManagedContainer borrower = container("borrower", 2, 16, GPU);
        container("idle-owner", 6, 6, GPU);
        ProcessIdentity loan = run(borrower, 15.5);

        assertThat(killedPids(plan(16))).containsExactly(loan.pid());
    }

    @Test
    void neverTouchesHostProcessesOrUnmanagedPods() {
        container("owner", 8, 8);
        run(null, 14); // a host process (or an unmanaged pod) hogs the GPU
        run(managed.get(0), 1.9);

        assertThat(plan(16).kills()).isEmpty();
    }

    @Test
    void processesBeingTerminatedCountAsFreed() {
        ManagedContainer owner = container("owner", 8, 8);
        ManagedContainer a = container("a", 2, 8);
        ManagedContainer b = container("b", 2, 8);
        run(owner, 4);
        ProcessIdentity first = run(a, 6);
        run(b, 5.8);
        long used = processes.stream().mapToLong(p -> p.process().usedBytes()).sum();
        GpuDevice gpu = GpuDevice.whole(0, GPU, "T4", 16 * GIB, used, 16 * GIB - used);
        NodeSnapshot snapshot = new NodeSnapshot(new GpuSample("550", List.of(gpu), List.of()), processes, managed);

        assertThat(killedPids(policy.plan(snapshot, Set.of()))).containsExactly(first.pid());
        assertThat(policy.plan(snapshot, Set.of(first)).kills())
                .as("the SIGTERMed one already covers it")
                .isEmpty();
    }

    @Test
    void aBudgetThatCannotBeResolvedIsReportedAndNotEnforced() {
        managed.add(new ManagedContainer(
                new ContainerRef("ns", "odd", "uid-odd", "main", "cid-odd"),
                new MemoryBudget(new MemoryAmount.Fraction(0.5), new MemoryAmount.Bytes(GIB), "test"),
                Set.of()));
        run(managed.get(0), 15);

        EnforcementPlan plan = plan(16);

        assertThat(plan.kills()).isEmpty();
        assertThat(plan.problems()).singleElement().asString().contains("ns/odd[main]", "below the request");
    }

    @Test
    void unknownUsageIsNeverSummedNorKilled() {
        ManagedContainer c = container("c", 1, 1);
        ProcessIdentity unknown =
                new ProcessIdentity(nextPid++, 1, c.ref().podUid(), c.ref().containerId());
        processes.add(new ObservedProcess(new GpuProcess(unknown.pid(), GPU, -1), unknown, Optional.of(c)));

        EnforcementPlan plan = plan(16);

        assertThat(plan.kills()).isEmpty();
        assertThat(plan.usage())
                .singleElement()
                .satisfies(u -> assertThat(u.usedBytes()).isZero());
    }
}
