package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.A100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.H100;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Department;
import io.quotient.core.model.Gang;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job held back by a maximum other than its split team's own group maximum (which
 * ModelGuaranteeScenariosTest covers): a team whose guarantee is "any model" with a group maximum, its department's
 * maximum for a group, and its department's overall maximum. In each it takes the place of its own team's
 * lower-priority jobs, freeing what it would bring the team or department beyond that maximum, as at the team's
 * overall maximum; a job of equal priority waits, and another team's jobs are never taken for it. One H100 node and
 * one A100 node of 4 GPUs each.
 */
class GroupMaximumDisplacementScenariosTest {

    private final ClusterRun run =
            new ClusterRun(QuotaScheduler.withDefaults(), ModelGuaranteeScenariosTest.cluster(1, 1));

    /** A maximum of {@code gpus} H100s, guaranteeing none: a guarantee of "any model" stays "any model". */
    private static ModelGuarantees atMostH100s(int gpus) {
        return h100s(0, gpus);
    }

    /** An H100 group guaranteeing {@code gpus}, at most {@code max}. */
    private static ModelGuarantees h100s(int gpus, int max) {
        return new ModelGuarantees(List.of(new ModelGuarantee(ModelGroup.of(H100), gpus * 1000L, max * 1000L)));
    }

    /** A 1-GPU job of the priority running for an hour on h-0's GPU. */
    private void onH100(String team, String name, int priority, int gpu) {
        run.observe(KueueFlavorScenarios.pinned(team, name, 1, priority, H100), "h-0", gpu, 1, Duration.ofHours(1));
    }

    private void deployOnH100(String team, String name, int priority) {
        run.deploy(KueueFlavorScenarios.pinned(team, name, 1, priority, H100));
    }

    private List<String> evicted() {
        return ModelGuaranteeScenariosTest.evicted(run);
    }

    /** The job waits with the reason given, and no plan evicted anything. */
    private void waitsEvictingNothing(String team, String name, String reason) {
        assertThat(run.reason(team, name)).isEqualTo(reason);
        assertThat(evicted()).isEmpty();
    }

    /**
     * The team's priority-0 H100 job waits at the maximum (the reason given), evicting nothing; its priority-1 one
     * takes the place of one of the team's own priority-0 jobs ("own..."), and of no other team's.
     */
    private void equalWaitsHigherTakesOwnPlace(String team, String reason) {
        deployOnH100(team, "same", 0);
        waitsEvictingNothing(team, "same", reason);
        deployOnH100(team, "urgent", 1);
        assertThat(run.isPlaced(team, "urgent")).isTrue();
        assertThat(evicted()).hasSize(1).allMatch(j -> j.startsWith(team + "/own"));
    }

    // --- a team whose guarantee is "any model", with a maximum for H100s only

    /** t (6 guaranteed, any model; at most 2 H100s) runs 2 H100 jobs of the priority given; o borrows the other 2. */
    private void anyModelTeamAtItsH100Maximum(int priority) {
        run.team(Team.of("t", 6).withModelGuarantees(atMostH100s(2))).team(Team.of("o", 0));
        onH100("t", "own1", priority, 0);
        onH100("t", "own2", priority, 1);
        onH100("o", "theirs1", 0, 2);
        onH100("o", "theirs2", 0, 3);
    }

    @Test
    void anAnyModelTeamAtItsGroupMaximumTakesThePlaceOfItsLowerPriorityJob() {
        // t's priority-0 H100 job waits at the group maximum; its priority-1 one takes the place of one of t's own
        // (before, it waited as well: only a split team's group maximum was decided in the group's view)
        anyModelTeamAtItsH100Maximum(0);
        equalWaitsHigherTakesOwnPlace("t", "team t at its maximum for H100-80GB (2 of 2 GPUs)");
    }

    @Test
    void anAnyModelTeamsEqualPriorityJobWaitsAndTakesNoOtherTeamsJob() {
        // t's H100 jobs are of the incoming job's priority; o's lower-priority H100 jobs are another team's: the job
        // waits at t's group maximum
        anyModelTeamAtItsH100Maximum(1);
        deployOnH100("t", "urgent", 1);
        waitsEvictingNothing("t", "urgent", "team t at its maximum for H100-80GB (2 of 2 GPUs)");
    }

    @Test
    void aJobAtAGroupMaximumAndItsOverallMaximumFreesWhatBringsItWithinBoth() {
        // t (at most 3, 3 of them H100s) holds 2 H100s and 1 A100: its priority-1 2-GPU H100 job is 1 beyond the
        // group's maximum and 2 beyond the overall one; freeing one H100 job would leave t at 4 of 3, so it frees both
        run.team(new Team("t", 0, 3000, 1.0, 0).withModelGuarantees(atMostH100s(3)));
        onH100("t", "low1", 0, 0);
        onH100("t", "low2", 0, 1);
        run.observe(KueueFlavorScenarios.pinned("t", "onA100", 1, 0, A100), "a-0", 0, 1, Duration.ofHours(1));
        run.deploy(KueueFlavorScenarios.pinned("t", "urgent", 2, 1, H100));
        assertThat(run.isPlaced("t", "urgent")).isTrue();
        assertThat(evicted()).containsExactlyInAnyOrder("t/low1", "t/low2");
        assertThat(run.held("t")).isEqualTo(3);
    }

    // --- a department's maximum for H100s

    /**
     * Department d (8 guaranteed, any model; at most 2 H100s) of t1 and t2, each guaranteed 4 of any model, holding
     * d's 2 H100s: t1 a job of the priority given, t2 a priority-0 one.
     */
    private void departmentAtItsH100Maximum(int priority) {
        Department d = new Department("d", 8000, Team.UNLIMITED, 1.0, atMostH100s(2));
        run.team(Team.of("t1", 4).withDepartment(d)).team(Team.of("t2", 4).withDepartment(d));
        onH100("t1", "own", priority, 0);
        onH100("t2", "theirs", 0, 1);
    }

    @Test
    void aJobAtItsDepartmentsGroupMaximumTakesThePlaceOfItsTeamsLowerPriorityJob() {
        // t1's priority-1 H100 job takes the place of t1's priority-0 one, not of t2's (before, it waited: a
        // department's group maximum displaced nothing)
        departmentAtItsH100Maximum(0);
        equalWaitsHigherTakesOwnPlace("t1", "department d at its maximum for H100-80GB (2 of 2 GPUs)");
    }

    @Test
    void atItsDepartmentsGroupMaximumAJobTakesNoSiblingsJob() {
        // t1's own H100 job is of the incoming job's priority, t2's is lower: t2 is another team, so the job waits
        departmentAtItsH100Maximum(1);
        deployOnH100("t1", "urgent", 1);
        waitsEvictingNothing("t1", "urgent", "department d at its maximum for H100-80GB (2 of 2 GPUs)");
    }

    @Test
    void aSplitDepartmentsGroupMaximumIsDecidedAlike() {
        // d's guarantee is split (2 H100s, at most 2) and so are its teams' (t1 1 H100, t2 1 H100); t1 borrows t2's
        // H100 guarantee: t1's priority-1 job takes the place of t1's priority-0 one; t2's own H100 job, though
        // within t2's guarantee, waits at d's group maximum and takes nothing from t1 (docs/fairness.md, limits)
        Department d = new Department("d", 2000, Team.UNLIMITED, 1.0, h100s(2, 2));
        run.team(ModelGuaranteeScenariosTest.split("t1", ModelGuaranteeScenariosTest.group(H100, 1))
                        .withDepartment(d))
                .team(ModelGuaranteeScenariosTest.split("t2", ModelGuaranteeScenariosTest.group(H100, 1))
                        .withDepartment(d));
        onH100("t1", "low1", 0, 0);
        onH100("t1", "low2", 0, 1);
        deployOnH100("t1", "urgent", 1);
        assertThat(run.isPlaced("t1", "urgent")).isTrue();
        assertThat(evicted()).hasSize(1).allMatch(j -> j.startsWith("t1/low"));
        deployOnH100("t2", "mine", 0);
        assertThat(run.reason("t2", "mine")).isEqualTo("department d at its maximum for H100-80GB (2 of 2 GPUs)");
        assertThat(evicted()).hasSize(1);
    }

    // --- a department's overall maximum

    @Test
    void aJobAtItsTeamsAndItsDepartmentsMaximaTakesThePlaceOfItsTeamsLowerPriorityJob() {
        // t (at most 2) fills d (at most 2): both maxima hold its priority-1 job back; it takes the place of one of
        // t's priority-0 jobs, freeing what brings both within (before, it waited: only one maximum at a time was
        // decided)
        Department d = new Department("d", 0, 2000, 1.0);
        run.team(new Team("t", 0, 2000, 1.0, 0).withDepartment(d)).team(Team.of("o", 0));
        onH100("t", "low1", 0, 0);
        onH100("t", "low2", 0, 1);
        onH100("o", "theirs", 0, 2);
        run.deploy(ClusterRun.withPriority(1, "t", "urgent", 1, Gang.SINGLE));
        assertThat(run.isPlaced("t", "urgent")).isTrue();
        assertThat(evicted()).hasSize(1).allMatch(j -> j.startsWith("t/low"));
    }

    /** Department d (at most 2) holds t1's job of the priority given and t2's priority-0 one: both guaranteed none. */
    private void departmentAtItsMaximum(int priority) {
        Department d = new Department("d", 0, 2000, 1.0);
        run.team(Team.of("t1", 0).withDepartment(d)).team(Team.of("t2", 0).withDepartment(d));
        onH100("t1", "own", priority, 0);
        onH100("t2", "theirs", 0, 1);
    }

    @Test
    void aJobAtItsDepartmentsMaximumTakesThePlaceOfItsTeamsLowerPriorityJob() {
        // t1's priority-1 job takes the place of t1's priority-0 one (it did before too: the rules free inside d)
        departmentAtItsMaximum(0);
        run.deploy(ClusterRun.withPriority(1, "t1", "urgent", 1, Gang.SINGLE));
        assertThat(run.isPlaced("t1", "urgent")).isTrue();
        assertThat(evicted()).containsExactly("t1/own");
    }

    @Test
    void atItsDepartmentsMaximumAnEqualPriorityJobWaitsAndTakesNoSiblingsJob() {
        // t1 holds only a job of equal priority; t2's lower-priority job is another team's, and t1 has no guarantee
        // to take back from it: the job waits
        departmentAtItsMaximum(1);
        run.deploy(ClusterRun.withPriority(1, "t1", "urgent", 1, Gang.SINGLE));
        assertThat(run.isPlaced("t1", "urgent")).isFalse();
        assertThat(evicted()).isEmpty();
    }
}
