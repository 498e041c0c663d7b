package io.quotient.replay;

import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.core.scheduling.ReclaimSettings;
import io.quotient.core.scheduling.Scheduler;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The policies the replay knows, by name: {@code quotient} and the baselines standing for the peers. */
public final class Baselines {

    private static final List<ReplayPolicy> ALL = List.of(
            new QuotientDefault(),
            new StaticQuota(),
            new BorrowOnly(),
            new FifoNoQuota(),
            new KueueLike(),
            new KaiLike());

    private Baselines() {}

    public static List<ReplayPolicy> all() {
        return ALL;
    }

    public static List<String> names() {
        return ALL.stream().map(ReplayPolicy::name).toList();
    }

    /** @throws IllegalArgumentException for an unknown name, listing the known ones */
    public static ReplayPolicy named(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        Optional<ReplayPolicy> found =
                ALL.stream().filter(p -> p.name().equals(key)).findFirst();
        return found.orElseThrow(() -> new IllegalArgumentException(
                "unknown replay policy '" + name + "'; known policies: " + String.join(", ", names()) + " (or all)"));
    }

    /** The scheduling core with a placement policy and reclaim settings, scoring against the typical workload. */
    static Scheduler scheduler(String placement, long fairShareMinGainMilli, int maxMoves) {
        return new QuotaScheduler(
                placement,
                QuotientDefault.SEED,
                new ClusterFittedWorkload(TargetWorkload.typical()),
                new ReclaimSettings(fairShareMinGainMilli, maxMoves));
    }

    /** Without moves, reclaiming toward fair shares from {@code 1 GPU} below them (the service's hysteresis). */
    static Scheduler scheduler(String placement, int maxMoves) {
        return scheduler(placement, 1000, maxMoves);
    }
}
