package io.quotient.core.scheduling;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.model.UsageRecord;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Each team's decayed past borrowing, for fair shares with memory ({@link FairShareSettings}): the decay-weighted
 * mean of what the team borrowed (GPU milli beyond its guarantee) over the window,
 *
 * <pre>
 *   D(now) = ∫ b(t) · 2^(−(now − t) / h) dt  /  ∫ 2^(−(now − t) / h) dt,   both over t in [now − window, now]
 * </pre>
 *
 * in milli: a team that borrowed 8 GPUs over the whole window has D = 8000; one that stopped a half-life ago, about
 * half that (more precisely, the weight of the time before the half-life). Borrowing is a step function: what
 * {@link #record} is given holds until the next record. The integral is kept exactly in buckets of a 64th of the
 * window (each bucket weighted to its end, so that advancing time only multiplies it); a bucket is dropped once it
 * ends before the window, so the window is respected to a bucket's width.
 *
 * <p>The clock is injected, so tests and the simulator drive time. Thread-safe: the service records from its
 * planning loop while reports read.
 */
public final class UsageHistory {

    static final int BUCKETS_PER_WINDOW = 64;

    private final FairShareSettings settings;
    private final Clock clock;
    private final double halfLifeMillis;
    private final long windowMillis;
    private final long bucketMillis;
    private final Map<String, TreeMap<Long, Double>> buckets = new HashMap<>();
    private Instant last;
    private Map<String, Long> lastBorrowed = Map.of();

    public UsageHistory(FairShareSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.halfLifeMillis = Math.max(1, settings.usageHalfLife().toMillis());
        this.windowMillis = Math.max(1, settings.window().toMillis());
        this.bucketMillis = Math.max(1000, windowMillis / BUCKETS_PER_WINDOW);
    }

    /** A history restored from its durable form; a record of another bucket width (other settings) starts empty. */
    public static UsageHistory restore(FairShareSettings settings, Clock clock, UsageRecord record) {
        UsageHistory h = new UsageHistory(settings, clock);
        if (record != null && record.bucketMillis() == h.bucketMillis) {
            h.last = record.last();
            h.lastBorrowed = record.lastBorrowed();
            record.buckets().forEach((team, b) -> h.buckets.put(team, new TreeMap<>(b)));
        }
        return h;
    }

    public FairShareSettings settings() {
        return settings;
    }

    /**
     * Adds what each team borrowed since the previous record (the amounts given then) and records what it borrows
     * from now on. A team absent from the map borrows nothing from now on.
     *
     * @param borrowedMilli per team, GPU milli it holds beyond its guarantee now
     */
    public synchronized void record(Map<String, Long> borrowedMilli) {
        Instant now = clock.instant();
        if (settings.decays() && last != null && now.isAfter(last)) {
            long from = last.toEpochMilli();
            long to = now.toEpochMilli();
            lastBorrowed.forEach((team, milli) -> {
                if (milli > 0) {
                    add(buckets.computeIfAbsent(team, t -> new TreeMap<>()), milli, from, to);
                }
            });
            long oldest = (to - windowMillis) / bucketMillis;
            buckets.values().forEach(b -> b.headMap(oldest).clear());
            buckets.values().removeIf(TreeMap::isEmpty);
        }
        if (last == null || !now.isBefore(last)) {
            last = now;
        }
        lastBorrowed = Map.copyOf(borrowedMilli);
    }

    /**
     * What each team borrows now: the GPU milli its placed jobs hold beyond its guarantee (teams within it absent),
     * and each department what its teams hold beyond the department's guarantee (under
     * {@link FairShare#departmentKey}), what {@link #record} takes. One definition for the service and the replay.
     */
    public static Map<String, Long> borrowedMilli(Map<String, Team> teams, List<PlacedJob> placed) {
        Map<String, Long> held = new HashMap<>();
        placed.forEach(p -> held.merge(p.spec().team(), p.gpuMilli(), Long::sum));
        Map<String, Long> borrowed = new HashMap<>();
        Map<Department, Long> departments = new HashMap<>();
        held.forEach((team, milli) -> {
            Team t = teams.get(team);
            long beyond = milli - (t == null ? 0 : t.guaranteedMilli());
            if (beyond > 0) {
                borrowed.put(team, beyond);
            }
            if (t != null && t.department() != null) {
                departments.merge(t.department(), milli, Long::sum);
            }
        });
        // a department borrows what its teams hold beyond the department's guarantee, kept under its own key: its
        // teams' borrowing summed counts a sibling's idle guarantee as borrowed from the cluster (FairShare)
        departments.forEach((d, milli) -> {
            if (milli > d.guaranteedMilli()) {
                borrowed.put(FairShare.departmentKey(d.name()), milli - d.guaranteedMilli());
            }
        });
        return borrowed;
    }

    /**
     * What each team borrows now ({@link #borrowedMilli(Map, List)}) and, when the quotas name model groups, what it
     * borrows in each group: its holding on nodes of the group's models beyond its guarantee there
     * ({@link QuotaLedger#guaranteeIn}), under the key {@link GroupShares#pastKey}, so that decayed usage is kept per
     * group as well as per team.
     */
    public static Map<String, Long> borrowedMilli(
            Map<String, Team> teams, List<PlacedJob> placed, List<NodeSpec> nodes) {
        Map<String, Long> borrowed = borrowedMilli(teams, placed);
        if (!GroupShares.declared(teams)) {
            return borrowed;
        }
        QuotaLedger ledger = new QuotaLedger(teams, QuotaStates.nodeModels(nodes));
        placed.forEach(ledger::add);
        Set<String> holders = new TreeSet<>();
        placed.forEach(p -> holders.add(p.spec().team()));
        Set<Department> departments = new HashSet<>();
        teams.values().stream().map(Team::department).filter(d -> d != null).forEach(departments::add);
        for (ModelGroup g : GroupShares.clusterGroups(teams, nodes)) {
            for (String team : holders) {
                long beyond = ledger.heldIn(team, g) - ledger.guaranteeIn(team, g);
                if (beyond > 0) {
                    borrowed.put(GroupShares.pastKey(team, g), beyond);
                }
            }
            // a department's borrowing in the group, beyond its guarantee there, as for the cluster above
            for (Department d : departments) {
                long beyond = ledger.departmentHeldIn(d.name(), g) - ledger.departmentGuaranteeIn(d, g);
                if (beyond > 0) {
                    borrowed.put(GroupShares.pastKey(FairShare.departmentKey(d.name()), g), beyond);
                }
            }
        }
        return borrowed;
    }

    /** Per team with any, its decayed past borrowing in milli now (empty without decay). */
    public synchronized Map<String, Double> decayedMilli() {
        Map<String, Double> decayed = new HashMap<>();
        if (!settings.decays() || last == null) {
            return decayed;
        }
        long now = Math.max(clock.millis(), last.toEpochMilli());
        long oldest = (now - windowMillis) / bucketMillis;
        double norm = piece(1, now - windowMillis, now, now);
        buckets.forEach((team, b) -> {
            double sum = 0;
            for (Map.Entry<Long, Double> e : b.tailMap(oldest, true).entrySet()) {
                long end = (e.getKey() + 1) * bucketMillis;
                sum += e.getValue() * Math.pow(2, -(now - end) / halfLifeMillis);
            }
            decayed.merge(team, sum, Double::sum);
        });
        long from = last.toEpochMilli();
        lastBorrowed.forEach((team, milli) -> {
            if (milli > 0 && now > from) {
                decayed.merge(team, piece(milli, from, now, now), Double::sum);
            }
        });
        decayed.replaceAll((team, sum) -> sum / norm);
        decayed.values().removeIf(v -> v <= 0);
        return decayed;
    }

    /** The durable form of the history now. */
    public synchronized UsageRecord toRecord() {
        Map<String, Map<Long, Double>> copy = new HashMap<>();
        buckets.forEach((team, b) -> copy.put(team, Map.copyOf(b)));
        return new UsageRecord(bucketMillis, last, lastBorrowed, copy);
    }

    /** Adds a constant borrowing over [from, to) to the buckets it spans, each part weighted to its bucket's end. */
    private void add(TreeMap<Long, Double> teamBuckets, long milli, long from, long to) {
        long t = from;
        while (t < to) {
            long index = t / bucketMillis;
            long end = (index + 1) * bucketMillis;
            long until = Math.min(to, end);
            teamBuckets.merge(index, piece(milli, t, until, end), Double::sum);
            t = until;
        }
    }

    /** ∫ milli · 2^((t − reference) / h) dt over [from, to), in milli × ms. */
    private double piece(double milli, long from, long to, long reference) {
        double scale = halfLifeMillis / Math.log(2);
        return milli
                * scale
                * (Math.pow(2, (to - reference) / halfLifeMillis) - Math.pow(2, (from - reference) / halfLifeMillis));
    }
}
