package io.quotient.core.scheduling;

import io.quotient.core.model.Department;

/**
 * What one reclaim search reads of each victim team, by the team's index in the workspace's per-node summary
 * ({@link Workspace.Held#team}, {@link ReclaimableOnNodes#teamIndex}): what the rights may take of it, its priority
 * and how far it stands from its fair share ({@link VictimStanding}), its department. A search's branch-and-bound
 * asks these at every branch, and asking the ledger and the rights by the team's name each time was a good part of
 * its cost; each is read once per team and search instead. The answers are those of the name lookups: neither the
 * ledger nor the rights change while a search runs (it changes the cluster state only, and undoes that).
 */
final class SearchTeams {

    private final Workspace ws;
    private final ReclaimRights rights;
    private final VictimStanding standing;
    /** Per team index, what the rights may take of the team ({@link ReclaimableOnNodes#allowances}). */
    private final long[] allowances;

    /**
     * The claimant team's index; -1 when it holds no job the summary knows of. Read once: a search only moves jobs
     * already placed, so no team gains an index while it runs (the arrays here are sized by the indices at its start).
     */
    private final int claimant;

    private final boolean[] read;
    private final int[] priority;
    private final long[] shareLeft;
    private final String[] department;

    SearchTeams(Workspace ws, ReclaimRights rights, VictimStanding standing) {
        this.ws = ws;
        this.rights = rights;
        this.standing = standing;
        this.allowances = ws.reclaimable().allowances(rights);
        int teams = allowances.length;
        this.claimant = ws.reclaimable().indexOf(rights.claimantTeam());
        this.read = new boolean[teams];
        this.priority = new int[teams];
        this.shareLeft = new long[teams];
        this.department = new String[teams];
    }

    /** Per team index, what the rights may take of the team (the array the per-node summary is tested with). */
    long[] allowances() {
        return allowances;
    }

    /** How many teams the indices run over. */
    int count() {
        return allowances.length;
    }

    /** {@link ReclaimRights#mayEvict}, another team's allowance read by its index. */
    boolean mayEvict(Workspace.Held held) {
        if (isClaimant(held.team())) {
            return rights.mayEvict(held.job());
        }
        return allowances[held.team()] >= held.job().gpuMilli();
    }

    /** Whether the team is the claimant's own. */
    boolean isClaimant(int team) {
        return team == claimant;
    }

    /** What the rights may take of another team, in GPU milli. */
    long allowance(int team) {
        return allowances[team];
    }

    /** The held job's team's priority; none (the least value) for the claimant's own jobs. */
    int teamPriority(Workspace.Held held) {
        if (isClaimant(held.team())) {
            return Integer.MIN_VALUE;
        }
        readTeam(held.team());
        return priority[held.team()];
    }

    /**
     * How far below its fair share the held job's team ends once {@code takenMilli} of it is gone
     * ({@link VictimStanding#stepsBelowShare}); none (the least value) for the claimant's own jobs.
     */
    long endsBelowShare(Workspace.Held held, long takenMilli) {
        if (isClaimant(held.team())) {
            return Long.MIN_VALUE;
        }
        readTeam(held.team());
        return standing.stepsBelowShare(shareLeft[held.team()], takenMilli);
    }

    /** The name of the team's department; null when it has none. */
    String department(int team) {
        readTeam(team);
        return department[team];
    }

    private void readTeam(int team) {
        if (read[team]) {
            return;
        }
        String name = ws.reclaimable().teamName(team);
        if (team != claimant) {
            priority[team] = standing.priority(name);
            shareLeft[team] = standing.shareLeft(name);
        }
        Department d = ws.ledger().team(name).department();
        department[team] = d == null ? null : d.name();
        read[team] = true;
    }
}
