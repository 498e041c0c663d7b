package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.LedgerBooks.Owner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each team (and department) holds, in GPU milli, and what its non-preemptible jobs hold. Mutable: a plan under
 * construction adds and removes jobs as it goes. Which jobs are in quota is not kept here: it follows from what a
 * team holds ({@link QuotaStates}), so every rule is stated on the totals.
 *
 * <p>A ledger is also a <em>view</em>: {@link #inGroup} shows the same books as one GPU model group sees them, so
 * that the rules, stated on totals and guarantees, hold per group unchanged. In a group's view a team (department)
 * whose guarantee is split by group ({@link ModelGuarantees#splitsGuarantee()}) holds what its jobs hold on nodes of
 * the group's models, against its guarantee and maximum in that group (0 and none when it has no such group); a team
 * whose guarantee is "any model" keeps its whole books. {@link #borrowing} shows a team as guaranteed nothing: the
 * view in which a team whose groups are all full (or whose job fits no group) only borrows. The teams a view shows
 * carry no groups of their own (their numbers are the group's already); the configuration is asked for those.
 *
 * <p>{@link #sharedIn} is the view in which a group's fair share is reclaimed: <em>every</em> team (and department)
 * holds what its jobs hold on nodes of the group's models, against its guarantee in the group ({@link #guaranteeIn})
 * and its maximum translated to the group (what it may still take overall, on top of what it holds there).
 * {@link #cappedIn} is the same view with each owner's maximum for the group too: there every maximum that may hold a
 * job of the group back (the team's and the department's, for the group and overall) is a maximum of the view.
 */
final class QuotaLedger {

    private final Map<String, Team> teams;
    /**
     * The same teams in a map of this ledger's own, for looking one up by name: every decision does that many times,
     * and a lookup through the snapshot's read-only wrapper cost a call the compiler cannot inline.
     */
    private final NamedLookup<Team> byName;

    private final LedgerBooks books;
    /** The group this view shows, null for the whole cluster. */
    private final ModelGroup group;
    /** The team this view shows guaranteed nothing, or null. */
    private final String borrower;
    /** Whether this group's view counts every team by its holding in the group (the fair-share view). */
    private final boolean shared;
    /** Whether this shared view also holds every owner to its maximum for the group ({@link #cappedIn}). */
    private final boolean capped;

    private Map<String, Team> viewedTeams;

    QuotaLedger(Map<String, Team> teams) {
        this(teams, Map.of());
    }

    /** @param nodeModels per node name, its GPU model: which group a job counts against */
    QuotaLedger(Map<String, Team> teams, Map<String, String> nodeModels) {
        this(teams, NamedLookup.copyOf(teams), new LedgerBooks(teams, nodeModels), null, null, false, false);
    }

    private QuotaLedger(
            Map<String, Team> teams,
            NamedLookup<Team> byName,
            LedgerBooks books,
            ModelGroup group,
            String borrower,
            boolean shared,
            boolean capped) {
        this.teams = teams;
        this.byName = byName;
        this.books = books;
        this.group = group;
        this.borrower = borrower;
        this.shared = shared;
        this.capped = capped;
    }

    /**
     * The jobs with their quota state as it is now ({@link QuotaStates}), in their original order, the covers of
     * teams whose jobs are unchanged reused from {@code covers}.
     */
    static List<PlacedJob> withCurrentQuotaStates(
            List<PlacedJob> placed, Map<String, Team> teams, Map<String, String> nodeModels, QuotaCovers covers) {
        return QuotaStates.current(placed, teams, nodeModels, covers);
    }

    /** The same books as the model group sees them (see the class comment); changes go to the shared books. */
    QuotaLedger inGroup(ModelGroup g) {
        return new QuotaLedger(teams, byName, books, g, null, false, false);
    }

    /** The same books with {@code team} guaranteed nothing. */
    QuotaLedger borrowing(String team) {
        return new QuotaLedger(teams, byName, books, null, team, false, false);
    }

    /**
     * The same books as the group's fair share sees them (see the class comment), with {@code borrower} guaranteed
     * nothing: the view in which a job borrows in the group.
     */
    QuotaLedger sharedIn(ModelGroup g, String borrower) {
        return new QuotaLedger(teams, byName, books, g, borrower, true, false);
    }

    /**
     * The same books as the group's maxima see them: every team (and department) holds what its jobs hold on nodes
     * of the group's models, as in {@link #sharedIn} (nobody a borrower), against the lower of its maximum for the
     * group and its overall maximum translated to the group, and a guarantee no larger. A job that may run in the
     * group only, freeing its team's own jobs there, ends within every maximum once it is within the view's: what
     * it frees counts against the group and the whole alike ({@link #beyondMaxima} in this view is what it must
     * free), whether the team's guarantee is split or "any model", and whether the maximum is the team's or its
     * department's.
     */
    QuotaLedger cappedIn(ModelGroup g) {
        return new QuotaLedger(teams, byName, books, g, null, true, true);
    }

    /**
     * The part of the team's guarantee that counts against the group: its guarantee there when its guarantee is split
     * by group; for a guarantee of "any model", the guarantee in proportion to what the team holds in the group (so
     * a team guaranteed 8 holding 6 V100s and 4 H100s counts 4.8 against V100s and 3.2 against H100s).
     */
    long guaranteeIn(String team, ModelGroup g) {
        Team t = configured(team);
        if (t.splitsGuarantee()) {
            return t.modelGuarantees()
                    .overlapping(g)
                    .map(ModelGuarantee::guaranteedMilli)
                    .orElse(0L);
        }
        return proportional(t.guaranteedMilli(), books.total(Owner.TEAM, team), heldIn(team, g));
    }

    /** The department's guarantee in the group, by {@link #guaranteeIn}'s rule. */
    long departmentGuaranteeIn(Department d, ModelGroup g) {
        if (d.modelGuarantees().splitsGuarantee()) {
            return d.modelGuarantees()
                    .overlapping(g)
                    .map(ModelGuarantee::guaranteedMilli)
                    .orElse(0L);
        }
        return proportional(
                d.guaranteedMilli(), books.total(Owner.DEPARTMENT, d.name()), departmentHeldIn(d.name(), g));
    }

    /** The part of {@code guaranteed} that {@code held} of {@code total} covers, rounded down. */
    private static long proportional(long guaranteed, long total, long held) {
        if (total <= 0 || guaranteed <= 0) {
            return 0;
        }
        return guaranteed >= total ? held : (long) Math.floor((double) held * guaranteed / total);
    }

    /**
     * A maximum translated into a group's view: what the owner holds there plus what it may still take overall; in
     * {@link #cappedIn} no more than the owner's maximum for the group ({@code groups}) and no floor, so that the view
     * says how far beyond either the owner would be.
     */
    private long translated(long max, long whole, long inGroup, long floor, ModelGuarantees groups) {
        if (!capped) {
            return translated(max, whole, inGroup, floor);
        }
        long groupMax = groups.overlapping(group).map(ModelGuarantee::maxMilli).orElse(Team.UNLIMITED);
        return Math.min(groupMax, translated(max, whole, inGroup, 0));
    }

    /** A maximum translated into a group's view: what the owner holds there plus what it may still take overall. */
    private static long translated(long max, long whole, long inGroup, long floor) {
        return max == Team.UNLIMITED ? max : Math.max(floor, max - whole + inGroup);
    }

    /** Whether this is a group's fair-share view ({@link #sharedIn}). */
    boolean shared() {
        return shared;
    }

    /** The group this view shows, if it is one group's. */
    Optional<ModelGroup> group() {
        return Optional.ofNullable(group);
    }

    void add(PlacedJob job) {
        change(job, job.gpuMilli());
    }

    void remove(PlacedJob job) {
        change(job, -job.gpuMilli());
    }

    private void change(PlacedJob job, long milli) {
        String team = job.spec().team();
        books.change(
                team, configured(team).department(), modelOf(job), job.spec().preemptible(), milli);
    }

    /** The GPU model of the node the job (its master replica) runs on; "" when the node is unknown. */
    String modelOf(PlacedJob job) {
        return books.modelOfNode(job.node());
    }

    String modelOfNode(String node) {
        return books.modelOfNode(node);
    }

    /** The team's configuration; a team no longer configured has no guarantee and no maximum. */
    Team team(String name) {
        return viewed(configured(name));
    }

    /** The team as configured, whatever this view shows. */
    private Team configured(String name) {
        Team team = byName.get(name);
        return team != null ? team : new Team(name, 0, Team.UNLIMITED, 0, Integer.MIN_VALUE);
    }

    private Team viewed(Team t) {
        if (shared) {
            long guaranteed = t.name().equals(borrower) ? 0 : guaranteeIn(t.name(), group);
            long max = translated(
                    t.maxMilli(),
                    books.total(Owner.TEAM, t.name()),
                    heldIn(t.name(), group),
                    guaranteed,
                    t.modelGuarantees());
            return t.withQuota(
                    Math.min(guaranteed, max), max, t.department() == null ? null : sharedDepartment(t.department()));
        }
        if (t.name().equals(borrower)) {
            return t.withQuota(0, t.maxMilli(), t.department());
        }
        if (group == null) {
            return t;
        }
        Department d = t.department() == null ? null : viewed(t.department());
        if (!t.splitsGuarantee()) {
            return d == t.department() ? t : t.withDepartment(d);
        }
        ModelGuarantee g = inViewedGroup(t.modelGuarantees());
        return t.withQuota(g.guaranteedMilli(), g.maxMilli(), d);
    }

    private Department viewed(Department d) {
        if (!d.modelGuarantees().splitsGuarantee()) {
            return d;
        }
        ModelGuarantee g = inViewedGroup(d.modelGuarantees());
        return new Department(d.name(), g.guaranteedMilli(), g.maxMilli(), d.overQuotaWeight(), ModelGuarantees.NONE);
    }

    private Department sharedDepartment(Department d) {
        long guaranteed = departmentGuaranteeIn(d, group);
        long max = translated(
                d.maxMilli(),
                books.total(Owner.DEPARTMENT, d.name()),
                departmentHeldIn(d.name(), group),
                guaranteed,
                d.modelGuarantees());
        return new Department(d.name(), Math.min(guaranteed, max), max, d.overQuotaWeight(), ModelGuarantees.NONE);
    }

    /** The owner's guarantee and maximum in the viewed group: none guaranteed and no maximum when it lacks the group. */
    private ModelGuarantee inViewedGroup(ModelGuarantees groups) {
        return groups.overlapping(group).orElseGet(() -> new ModelGuarantee(group, 0, Team.UNLIMITED));
    }

    /** Every configured team as this view shows it. */
    Map<String, Team> teams() {
        if (group == null && borrower == null) {
            return teams;
        }
        if (viewedTeams == null) {
            Map<String, Team> view = new LinkedHashMap<>();
            teams.forEach((name, t) -> view.put(name, viewed(t)));
            viewedTeams = view;
        }
        return viewedTeams;
    }

    long total(String team) {
        return inView(Owner.TEAM, team);
    }

    long departmentTotal(String department) {
        return inView(Owner.DEPARTMENT, department);
    }

    long nonPreemptible(String team) {
        return inView(Owner.NON_PREEMPTIBLE, team);
    }

    /** What the owner holds, overall or as this view sees it. */
    private long inView(Owner kind, String owner) {
        if (group == null || !(shared || books.splits(kind, owner))) {
            return books.total(kind, owner);
        }
        return books.heldIn(kind, owner, group);
    }

    /** What the team holds on nodes of the group's models (whatever its guarantee): for reports and group maxima. */
    long heldIn(String team, ModelGroup g) {
        return books.heldIn(Owner.TEAM, team, g);
    }

    /** What the department's teams hold on nodes of the group's models. */
    long departmentHeldIn(String department, ModelGroup g) {
        return books.heldIn(Owner.DEPARTMENT, department, g);
    }

    /** What the team holds beyond its guarantee. */
    long borrowed(String team) {
        return Math.max(0, total(team) - team(team).guaranteedMilli());
    }

    /** Whether the team, holding {@code milli} more, would still be within its guarantee. */
    boolean fitsGuarantee(String team, long milli) {
        return total(team) + milli <= team(team).guaranteedMilli();
    }

    /** Whether the team's department, holding {@code milli} more, would still be within its guarantee (false without one). */
    boolean fitsDepartmentGuarantee(String team, long milli) {
        Department d = team(team).department();
        return d != null && departmentTotal(d.name()) + milli <= d.guaranteedMilli();
    }

    /** Whether a non-preemptible job of {@code milli} fits the guarantee beside the team's other non-preemptible work. */
    boolean fitsGuaranteeNonPreemptible(String team, long milli) {
        return nonPreemptible(team) + milli <= team(team).guaranteedMilli();
    }

    /** Whether {@code milli} more would take the team beyond its maximum. */
    boolean exceedsMax(String team, long milli) {
        Team t = team(team);
        return t.hasMax() && total(team) + milli > t.maxMilli();
    }

    /**
     * How far {@code milli} more would take the team beyond its maximum or its department beyond the department's,
     * whichever is further; 0 within both. What a plan that frees only the team's own jobs must free first.
     */
    long beyondMaxima(String team, long milli) {
        Team t = team(team);
        long beyond = t.hasMax() ? total(team) + milli - t.maxMilli() : 0;
        Department d = t.department();
        if (d != null && d.hasMax()) {
            beyond = Math.max(beyond, departmentTotal(d.name()) + milli - d.maxMilli());
        }
        return Math.max(beyond, 0);
    }

    /** Whether {@code milli} more would take the team's department beyond the department's maximum. */
    boolean exceedsDepartmentMax(String team, long milli) {
        Department d = team(team).department();
        return d != null && d.hasMax() && departmentTotal(d.name()) + milli > d.maxMilli();
    }

    /**
     * Whether the claimant team's reclaim must leave another team's job alone: it runs inside its team's guarantee in
     * its model group (a team whose guarantee is split keeps each group's guarantee, whichever rule reclaims).
     */
    boolean keptInGroup(PlacedJob job, String claimant) {
        return !job.spec().team().equals(claimant)
                && job.quotaState() == QuotaState.IN_QUOTA
                && books.splits(Owner.TEAM, job.spec().team());
    }

    /**
     * Whether moving the job to a node of {@code model} keeps it in the model group it counts against now (a move is
     * no decision of quota): always for teams whose guarantee is "any model".
     */
    boolean sameGroup(PlacedJob job, String model) {
        if (!books.splits(Owner.TEAM, job.spec().team())) {
            return true;
        }
        ModelGuarantees groups = configured(job.spec().team()).modelGuarantees();
        return groups.forModel(modelOf(job)).equals(groups.forModel(model));
    }
}
