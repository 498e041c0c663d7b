package io.quotient.core.scheduling;

import io.quotient.core.model.PlacedJob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per node, the GPU milli of the preemptible jobs on it, per team and for the single-node ones (those a move may
 * take elsewhere): kept by the workspace's own bookings, one job added or removed at a time, so that a reclaim search
 * can rule a node out without reading its jobs. Only a preemptible job can be evicted or moved
 * ({@link ReclaimCandidates#movableOrEvictable}), and whether the rights let a job go depends on its team and GPU
 * milli alone ({@link ReclaimRights#mayEvict}), so a node that {@link #mayHoldCandidate} rules out has no candidate:
 * on a full cluster, with rights that cover few teams, most nodes are such.
 */
final class ReclaimableOnNodes {

    private final Map<String, Integer> teamIndex = new HashMap<>();
    private final List<String> teams = new ArrayList<>();
    /** Per node index, per team index, the GPU milli of each of the team's preemptible jobs there (null: none yet). */
    private MilliBag[][] byTeam;
    /** Per node index, the GPU milli of each preemptible single-node job there. */
    private final MilliBag[] single;

    ReclaimableOnNodes(int nodes) {
        byTeam = new MilliBag[nodes][];
        single = new MilliBag[nodes];
        for (int n = 0; n < nodes; n++) {
            byTeam[n] = new MilliBag[0];
            single[n] = new MilliBag();
        }
    }

    /** The job (or its replica) now holds capacity on the node. */
    void add(int node, PlacedJob job) {
        if (!job.spec().preemptible()) {
            return;
        }
        long milli = job.gpuMilli();
        int team = teamIndex(job.spec().team());
        if (byTeam[node].length <= team) {
            byTeam[node] = Arrays.copyOf(byTeam[node], teams.size());
        }
        if (byTeam[node][team] == null) {
            byTeam[node][team] = new MilliBag();
        }
        byTeam[node][team].add(milli);
        if (!job.spec().gang().spansNodes()) {
            single[node].add(milli);
        }
    }

    /** The job (or its replica), added before, no longer holds capacity on the node. */
    void remove(int node, PlacedJob job) {
        if (!job.spec().preemptible()) {
            return;
        }
        long milli = job.gpuMilli();
        byTeam[node][teamIndex.get(job.spec().team())].remove(milli);
        if (!job.spec().gang().spansNodes()) {
            single[node].remove(milli);
        }
    }

    /**
     * What a search under the rights may take of each team, by this summary's team index, read once per search: the
     * claimant team any preemptible job of its own (its rights test each), another team what its allowance covers.
     */
    long[] allowances(ReclaimRights rights) {
        long[] allowed = new long[teams.size()];
        for (int t = 0; t < allowed.length; t++) {
            String team = teams.get(t);
            allowed[t] = !rights.evictions()
                    ? -1
                    : team.equals(rights.claimantTeam())
                            ? Long.MAX_VALUE
                            : rights.teamAllowance().getOrDefault(team, 0L);
        }
        return allowed;
    }

    /**
     * False only when no job on the node can be a candidate of a search under the rights whose {@link #allowances}
     * are given: no team's preemptible job there is within what the search may take of that team, and (when
     * {@code mayMove}) no preemptible single-node job there is small enough to move ({@code mostFree}).
     */
    boolean mayHoldCandidate(int node, long[] allowances, boolean mayMove, long mostFree) {
        if (mayMove && single[node].min() <= mostFree) {
            return true;
        }
        MilliBag[] bags = byTeam[node];
        for (int t = 0; t < bags.length; t++) {
            if (bags[t] != null && !bags[t].isEmpty() && allowances[t] >= bags[t].min()) {
                return true;
            }
        }
        return false;
    }

    /** The summary of one node: per team, its preemptible jobs' milli, sorted; and the single-node ones'. */
    record NodeSummary(Map<String, List<Long>> byTeam, List<Long> single) {}

    /** What the node's summary holds now (for tests: the same as one built afresh from the jobs on it). */
    NodeSummary summary(int node) {
        Map<String, List<Long>> held = new HashMap<>();
        for (int t = 0; t < byTeam[node].length; t++) {
            if (byTeam[node][t] != null && !byTeam[node][t].isEmpty()) {
                held.put(teams.get(t), byTeam[node][t].sorted());
            }
        }
        return new NodeSummary(held, single[node].sorted());
    }

    /** The team's index in this summary (and in {@link #allowances}' answer), given it at its first job. */
    int teamIndex(String team) {
        int known = indexOf(team);
        if (known >= 0) {
            return known;
        }
        teamIndex.put(team, teams.size());
        teams.add(team);
        return teams.size() - 1;
    }

    /** The team's index, without giving it one: -1 when it never had a job here. */
    int indexOf(String team) {
        return teamIndex.getOrDefault(team, -1);
    }

    /** The team given the index by {@link #teamIndex}. */
    String teamName(int index) {
        return teams.get(index);
    }

    /** A small multiset of GPU milli (a node holds a handful of jobs) that knows its least value. */
    private static final class MilliBag {
        private long[] values = new long[4];
        private int size;
        private long min = Long.MAX_VALUE;

        void add(long milli) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = milli;
            min = Math.min(min, milli);
        }

        void remove(long milli) {
            for (int i = 0; i < size; i++) {
                if (values[i] == milli) {
                    values[i] = values[--size];
                    if (milli == min) {
                        min = Long.MAX_VALUE;
                        for (int j = 0; j < size; j++) {
                            min = Math.min(min, values[j]);
                        }
                    }
                    return;
                }
            }
        }

        boolean isEmpty() {
            return size == 0;
        }

        /** The least value; {@link Long#MAX_VALUE} when empty. */
        long min() {
            return min;
        }

        List<Long> sorted() {
            long[] copy = Arrays.copyOf(values, size);
            Arrays.sort(copy);
            return Arrays.stream(copy).boxed().toList();
        }
    }
}
