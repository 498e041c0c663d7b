package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.DepartmentLimits;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Who may take capacity from whom, stated on what teams and departments hold (never on labels fixed at arrival):
 * <ul>
 *   <li><b>guarantee</b>: a job that keeps its team within its guarantee may take from every team above its own
 *   guarantee, down to that guarantee (and from other departments down to theirs; only inside its own department
 *   while that department is above its guarantee). A non-preemptible job may also displace its own team's
 *   preemptible jobs, which then ran beyond the guarantee;</li>
 *   <li><b>guarantee, within one job</b>: only when no plan keeps every victim at its guarantee (whole jobs do not
 *   always split at it: a team at 27 of 20 in 3-GPU jobs on 10-GPU nodes cannot hand over a whole node and keep
 *   20; a team at 20 of 10 in one 20-GPU job cannot hand over anything and keep 10), a job that keeps its team
 *   within its guarantee may take from a team that is above its guarantee down to less than one of that team's
 *   jobs below it, and never further below it than the claimant team is below its own now. Without it the team
 *   below its guarantee would wait for as long as the borrowed job runs (KAI-Scheduler reclaims such a job too);
 *   with it no shortfall grows beyond the largest one there was, and the claimant ends within its guarantee, so
 *   neither team can take the capacity back by the same rule (no cycles). A team at or below its guarantee is never
 *   a victim of it;</li>
 *   <li><b>guarantee, with the team's lower-priority jobs</b> (when no rule alone found a plan): a preemptible job of
 *   a team below its guarantee, with {@link WithinTeamPreemption#LOWER_PRIORITY}, frees enough of its team's own
 *   lower-priority jobs to fit the guarantee and takes the rest from teams above theirs, down to them, in one
 *   plan;</li>
 *   <li><b>department guarantee</b>: a preemptible job that its team's guarantee does not cover but its department's
 *   does (the department, with the job, within its guarantee) may take from teams outside the department down to
 *   their guarantees, and from other departments down to theirs ({@link Department}: capacity its teams may always
 *   reclaim from other departments);</li>
 *   <li><b>fair share</b>: a preemptible job of a team at least {@link ReclaimSettings#fairShareMinGainMilli()}
 *   (the hysteresis) below its fair share, that keeps the team within it, may take from teams at least the
 *   hysteresis above their fair share, down to it (both teams must take part in fair-share reclaim); since the
 *   claimant ends at most at its share and the victims at least at theirs, shares converge instead of changing hands
 *   back and forth, and a team above its share only by rounding (weights 123456789 against 1) is no victim;</li>
 *   <li><b>fair share, within one job</b>: the same fallback for fair share: when no plan keeps every victim at its
 *   share, a victim at least the hysteresis above it may end less than one of its jobs below it, at least the
 *   hysteresis less far below it than the claimant is below its own share (the largest shortfall shrinks by the
 *   hysteresis; it never just passes from one team to the other), and no further below its guarantee than the
 *   claimant is below its own guarantee;</li>
 *   <li><b>priority</b>: with {@link WithinTeamPreemption#LOWER_PRIORITY}, a job may take from its own team's jobs
 *   of lower priority; never from another team for priority alone.</li>
 * </ul>
 * Only preemptible jobs past their minimum runtime are ever evicted or moved. The order the rules are tried in is
 * {@link ReclaimLadder}; each rule is a {@link ReclaimStep}.
 */
final class ReclaimRules {

    private final QuotaLedger ledger;
    private final Map<String, Long> fairShare;
    private final Map<String, Long> departmentFairShare;
    private final ReclaimSettings settings;

    ReclaimRules(QuotaLedger ledger, Map<String, Long> fairShare, ReclaimSettings settings) {
        this.ledger = ledger;
        this.fairShare = fairShare;
        this.departmentFairShare = FairShare.ofDepartments(ledger.teams(), fairShare);
        this.settings = settings;
    }

    long fairShare(String team) {
        return fairShare.getOrDefault(team, 0L);
    }

    /** The guarantee right, if the job has it. */
    Optional<ReclaimRights> guarantee(JobSpec job, long milli) {
        String team = job.team();
        long guaranteed = ledger.team(team).guaranteedMilli();
        Predicate<PlacedJob> own;
        long ownMustFree;
        if (job.preemptible()) {
            if (!ledger.fitsGuarantee(team, milli)) {
                return Optional.empty();
            }
            own = j -> false;
            ownMustFree = 0;
        } else {
            own = j -> j.spec().preemptible();
            ownMustFree = Math.max(0, ledger.total(team) + milli - guaranteed);
        }
        return Optional.of(new ReclaimRights(
                ReclaimStep.GUARANTEE,
                aboveGuarantee(),
                departments(team, milli, false),
                team,
                own,
                ownMustFree,
                true,
                settings.maxMovesPerDecision() > 0));
    }

    /**
     * The guarantee right with the team's own lower-priority jobs, when no rule alone found a plan: a preemptible job
     * of a team below its guarantee, with {@link WithinTeamPreemption#LOWER_PRIORITY}, that would fit the guarantee
     * once enough of the team's own lower-priority jobs are gone, frees those and takes the rest from teams above
     * their guarantee, down to it, in one plan (Kueue frees a ClusterQueue's own lower-priority workloads and reclaims
     * from a borrowing one together).
     */
    Optional<ReclaimRights> guaranteeWithOwnLowerPriority(JobSpec job, long milli) {
        String team = job.team();
        Team t = ledger.team(team);
        long mustFree = ledger.total(team) + milli - t.guaranteedMilli();
        if (!job.preemptible()
                || t.preemptWithinTeam() != WithinTeamPreemption.LOWER_PRIORITY
                || mustFree <= 0
                || ledger.total(team) >= t.guaranteedMilli()) {
            return Optional.empty();
        }
        return Optional.of(withOwnLowerPriority(
                ReclaimStep.GUARANTEE_WITH_OWN_LOWER_PRIORITY,
                aboveGuarantee(),
                departments(team, milli, false),
                job,
                mustFree));
    }

    /** Rights that free the claimant's own lower-priority preemptible jobs ({@code mustFree} of them) and others'. */
    private ReclaimRights withOwnLowerPriority(
            ReclaimStep step, Map<String, Long> others, DepartmentLimits departments, JobSpec job, long mustFree) {
        return new ReclaimRights(
                step,
                others,
                departments,
                job.team(),
                j -> j.spec().preemptible() && j.spec().priority() < job.priority(),
                mustFree,
                true,
                settings.maxMovesPerDecision() > 0);
    }

    /**
     * The department's guarantee right, for a preemptible job its team's own guarantee does not cover but its
     * department's does (the department, with the job, within its guarantee): it takes from teams outside the
     * department, each down to its own guarantee, and from other departments down to theirs; never from the
     * department's own teams, whose shares of it their own guarantees and fair shares decide.
     */
    Optional<ReclaimRights> departmentGuarantee(JobSpec job, long milli) {
        String team = job.team();
        if (!job.preemptible() || ledger.fitsGuarantee(team, milli) || !ledger.fitsDepartmentGuarantee(team, milli)) {
            return Optional.empty();
        }
        Department own = ledger.team(team).department();
        Map<String, Long> teams = aboveGuarantee();
        ledger.teams().values().stream()
                .filter(t -> t.department() != null && t.department().name().equals(own.name()))
                .forEach(t -> teams.remove(t.name()));
        return Optional.of(new ReclaimRights(
                ReclaimStep.DEPARTMENT_GUARANTEE,
                teams,
                departments(team, milli, false),
                team,
                j -> false,
                0,
                true,
                settings.maxMovesPerDecision() > 0));
    }

    /**
     * The guarantee right when the strict one found no plan: a team above its guarantee may lose down to less than
     * its largest preemptible job below the guarantee, and no further below it than the claimant team is now.
     *
     * @param largestJob per team, the GPU milli of its largest preemptible placed job, 0 for none
     *                   ({@link Workspace#largestPreemptibleMilli}; asked only for the teams the rule may take from)
     */
    Optional<ReclaimRights> guaranteeWithinOneJob(JobSpec job, long milli, ToLongFunction<String> largestJob) {
        String team = job.team();
        long shortfall = ledger.team(team).guaranteedMilli() - ledger.total(team);
        if (shortfall <= 0 || (job.preemptible() && !ledger.fitsGuarantee(team, milli))) {
            return Optional.empty();
        }
        Map<String, Long> teams = new HashMap<>();
        for (Team t : ledger.teams().values()) {
            long guaranteed = t.guaranteedMilli();
            if (!t.name().equals(team) && ledger.total(t.name()) > guaranteed) {
                teams.put(
                        t.name(),
                        above(t.name(), withinOneJob(guaranteed, largestJob.applyAsLong(t.name()), shortfall)));
            }
        }
        return Optional.of(new ReclaimRights(
                ReclaimStep.GUARANTEE_WITHIN_ONE_JOB,
                teams,
                departments(team, milli, false),
                team,
                j -> false,
                0,
                true,
                settings.maxMovesPerDecision() > 0));
    }

    /** The fair-share right, if the job has it. */
    Optional<ReclaimRights> fairShare(JobSpec job, long milli) {
        String team = job.team();
        long share = fairShare(team);
        long held = ledger.total(team);
        if (!job.preemptible()
                || !ledger.team(team).fairShareReclaim()
                || share - held < settings.fairShareMinGainMilli()
                || held + milli > share) {
            return Optional.empty();
        }
        return Optional.of(new ReclaimRights(
                ReclaimStep.FAIR_SHARE,
                clearlyAboveFairShare(),
                departments(team, milli, true),
                team,
                j -> false,
                0,
                true,
                settings.maxMovesPerDecision() > 0));
    }

    /**
     * The fair-share right with the team's own lower-priority jobs, when no rule alone found a plan: a preemptible job
     * of a team clearly below its fair share, with {@link WithinTeamPreemption#LOWER_PRIORITY}, that would fit the
     * share once enough of the team's own lower-priority jobs are gone, frees those and takes the rest from teams
     * clearly above their fair-share level, down to it, in one plan (Kueue's fair sharing preempts a ClusterQueue's own
     * lower-priority workloads and a workload of the ClusterQueue furthest above its share together). The team still
     * gains what the plain fair-share right asks of a claimant: its shortfall is at least the hysteresis.
     */
    Optional<ReclaimRights> fairShareWithOwnLowerPriority(JobSpec job, long milli) {
        String team = job.team();
        Team t = ledger.team(team);
        long share = fairShare(team);
        long held = ledger.total(team);
        long mustFree = held + milli - share;
        if (!job.preemptible()
                || !t.fairShareReclaim()
                || t.preemptWithinTeam() != WithinTeamPreemption.LOWER_PRIORITY
                || share - held < settings.fairShareMinGainMilli()
                || mustFree <= 0) {
            return Optional.empty();
        }
        return Optional.of(withOwnLowerPriority(
                ReclaimStep.FAIR_SHARE_WITH_OWN_LOWER_PRIORITY,
                clearlyAboveFairShare(),
                departments(team, milli, true),
                job,
                mustFree));
    }

    /**
     * The fair-share right when the strict one found no plan: a team above its share (and guarantee) may lose down to
     * less than its largest preemptible job below that level, no further below it than the claimant is below its own
     * share, and no further below its guarantee than the claimant is below its own guarantee.
     *
     * @param largestJob per team, the GPU milli of its largest preemptible placed job, 0 for none
     *                   ({@link Workspace#largestPreemptibleMilli}; asked only for the teams the rule may take from)
     */
    Optional<ReclaimRights> fairShareWithinOneJob(JobSpec job, long milli, ToLongFunction<String> largestJob) {
        if (fairShare(job, milli).isEmpty()) {
            return Optional.empty();
        }
        String team = job.team();
        long held = ledger.total(team);
        long shareShortfall = fairShare(team) - held;
        long guaranteeShortfall = Math.max(0, ledger.team(team).guaranteedMilli() - held);
        Map<String, Long> teams = new HashMap<>();
        // the victim ends at least the hysteresis less far below its share than the claimant is below its own
        long shrunkShortfall = shareShortfall - victimMargin();
        for (Team t : ledger.teams().values()) {
            long level = fairShareLevel(t);
            if (t.fairShareReclaim() && !t.name().equals(team) && clearlyAbove(t)) {
                long floor = Math.max(
                        withinOneJob(level, largestJob.applyAsLong(t.name()), shrunkShortfall),
                        t.guaranteedMilli() - guaranteeShortfall);
                teams.put(t.name(), above(t.name(), floor));
            }
        }
        return Optional.of(new ReclaimRights(
                ReclaimStep.FAIR_SHARE_WITHIN_ONE_JOB,
                teams,
                departments(team, milli, true),
                team,
                j -> false,
                0,
                true,
                settings.maxMovesPerDecision() > 0));
    }

    /**
     * The least a victim team may keep under a within-one-job rule: less than one of its jobs below its level, and
     * no further below it than the claimant is below its own level now.
     */
    private static long withinOneJob(long level, long largestJob, long claimantShortfall) {
        return Math.max(0, Math.max(level - largestJob + 1, level - claimantShortfall));
    }

    /** The right to preempt the team's own lower-priority jobs, if the team allows it. */
    Optional<ReclaimRights> priority(JobSpec job, long ownMustFree) {
        Team team = ledger.team(job.team());
        if (team.preemptWithinTeam() != WithinTeamPreemption.LOWER_PRIORITY) {
            return Optional.empty();
        }
        Predicate<PlacedJob> lower = j -> j.spec().preemptible() && j.spec().priority() < job.priority();
        return Optional.of(new ReclaimRights(
                ReclaimStep.PRIORITY,
                Map.of(),
                DepartmentLimits.NONE,
                team.name(),
                lower,
                ownMustFree,
                true,
                settings.maxMovesPerDecision() > 0));
    }

    /** Moves only: a job that quota lets run now and that waits only because free capacity is scattered. */
    Optional<ReclaimRights> consolidation(JobSpec job) {
        if (settings.maxMovesPerDecision() == 0) {
            return Optional.empty();
        }
        return Optional.of(new ReclaimRights(
                ReclaimStep.CONSOLIDATION, Map.of(), DepartmentLimits.NONE, job.team(), j -> false, 0, false, true));
    }

    /** Every team's allowance down to its own guarantee (what the guarantee rules may take from it). */
    private Map<String, Long> aboveGuarantee() {
        Map<String, Long> teams = new HashMap<>();
        ledger.teams().values().forEach(t -> teams.put(t.name(), above(t.name(), t.guaranteedMilli())));
        return teams;
    }

    /** Per team clearly above its fair-share level, what it may lose down to that level. */
    private Map<String, Long> clearlyAboveFairShare() {
        Map<String, Long> teams = new HashMap<>();
        ledger.teams().values().stream()
                .filter(t -> t.fairShareReclaim() && clearlyAbove(t))
                .forEach(t -> teams.put(t.name(), above(t.name(), fairShareLevel(t))));
        return teams;
    }

    /** What fair-share reclaim protects a team at: its guarantee or its fair share, whichever is more. */
    private long fairShareLevel(Team t) {
        return Math.max(t.guaranteedMilli(), fairShare(t.name()));
    }

    /**
     * Whether the team is above its fair-share level by at least the victim margin (and above it at all): nearer than
     * that it is no victim of fair-share reclaim, since the difference may be rounding and evicting for it would only
     * make the jobs change hands.
     */
    private boolean clearlyAbove(Team t) {
        long excess = ledger.total(t.name()) - fairShareLevel(t);
        return excess > 0 && excess >= victimMargin();
    }

    /**
     * Half the hysteresis: how far above its share a victim must be, and by how much a fair-share plan must shrink
     * the largest shortfall. The claimant must gain the whole hysteresis; the victims' side asks half of it, so that
     * teams half a GPU above their shares of 1.5 still give a GPU to a team at 0 of 1 (as Volcano and Kueue reclaim),
     * while a team above its share by rounding alone, or a plan that only moves the shortfall to the victim, is
     * refused. No exchange can flip back: the claimant ends at most at its share, so it is no victim afterwards.
     */
    private long victimMargin() {
        return settings.fairShareMinGainMilli() / 2;
    }

    private long above(String team, long level) {
        return Math.max(0, ledger.total(team) - level);
    }

    /**
     * What other departments may lose: down to their guarantee (or fair share); and, when the claimant's own
     * department with the job would be above its own level, what it must free inside itself first: its teams borrow
     * inside it first, and take from other departments only for what brings it back to that level; and, when it would
     * be above its maximum, what it must free inside itself in any case (a team within its guarantee takes it back
     * from the sibling that borrowed it, as Volcano's hierarchical queues do, instead of waiting at the maximum).
     */
    private DepartmentLimits departments(String claimant, long milli, boolean fair) {
        Map<String, Long> allowance = new HashMap<>();
        ledger.teams().values().stream()
                .map(Team::department)
                .filter(d -> d != null)
                .forEach(d -> allowance.put(d.name(), Math.max(0, ledger.departmentTotal(d.name()) - level(d, fair))));
        Department own = ledger.team(claimant).department();
        if (own == null) {
            return new DepartmentLimits(allowance, 0, 0);
        }
        long withJob = ledger.departmentTotal(own.name()) + milli;
        long overMax = own.hasMax() ? Math.max(0, withJob - own.maxMilli()) : 0;
        return new DepartmentLimits(allowance, Math.max(0, withJob - level(own, fair)), overMax);
    }

    private long level(Department d, boolean fair) {
        return fair
                ? Math.max(d.guaranteedMilli(), departmentFairShare.getOrDefault(d.name(), 0L))
                : d.guaranteedMilli();
    }
}
