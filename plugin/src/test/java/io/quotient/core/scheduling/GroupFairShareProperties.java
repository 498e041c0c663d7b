package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.A100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.H100;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Fair share per model group under random streams: two teams whose guarantees are split between H100s and A100s and
 * two borrowing teams (guaranteed nothing, random over-quota weights), so that every borrowing job is decided by the
 * groups' fair shares; jobs pinned to a model or not (the borrowing teams' of one or two GPUs), deployed in random
 * order. After the plans
 * settle, every split team holds in each group at least min(its guarantee there, what its jobs pinned to that model
 * ask), and the re-queue stops evicting (no cycles of fair-share reclaim between groups).
 */
class GroupFairShareProperties {

    private static final String[] TEAMS = {"s0", "s1", "b0", "b1"};
    private static final String[] MODELS = {H100, A100};

    /**
     * @param guarantees per split team, its H100 then A100 guarantee (at most 4 of each model's 8 GPUs)
     * @param weights    the borrowing teams' over-quota weights
     * @param stream     per job: team (0..3), pin (0 H100, 1 A100, 2 none), size (1 or 2 GPUs, borrowing teams)
     */
    @Property(tries = 60)
    void noSplitTeamBelowItsGuaranteePerGroupAndReclaimStops(
            @ForAll @Size(4) List<@IntRange(min = 0, max = 4) Integer> guarantees,
            @ForAll @Size(2) List<@IntRange(min = 1, max = 3) Integer> weights,
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> stream) {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ModelGuaranteeScenariosTest.cluster(2, 2));
        for (int t = 0; t < 2; t++) {
            run.team(ModelGuaranteeScenariosTest.split(
                    TEAMS[t],
                    ModelGuaranteeScenariosTest.group(H100, guarantees.get(t * 2)),
                    ModelGuaranteeScenariosTest.group(A100, guarantees.get(t * 2 + 1))));
        }
        for (int t = 0; t < 2; t++) {
            run.team(new Team(
                    TEAMS[2 + t],
                    0,
                    Team.UNLIMITED,
                    weights.get(t),
                    0,
                    WithinTeamPreemption.LOWER_PRIORITY,
                    true,
                    null,
                    null,
                    null));
        }
        Map<String, Integer> pinnedDemand = new HashMap<>();
        for (int i = 0; i < stream.size(); i++) {
            int team = stream.get(i) % 4;
            int pin = stream.get(i) / 4 % 3;
            // split teams ask 1 GPU a job, so that whole jobs always fit what is left of a guarantee
            int gpus = team < 2 ? 1 : 1 + stream.get(i) / 12;
            JobSpec job = pin < 2
                    ? ModelGuaranteeScenariosTest.pinned(TEAMS[team], "j" + i, gpus, MODELS[pin])
                    : ClusterRun.job(TEAMS[team], "j" + i, gpus);
            if (pin < 2) {
                pinnedDemand.merge(TEAMS[team] + "/" + MODELS[pin], gpus, Integer::sum);
            }
            run.deploy(job);
            run.advance(Duration.ofSeconds(1));
        }
        for (int round = 0; round < 12; round++) {
            run.advance(Duration.ofMinutes(1));
            run.requeue();
        }
        for (int t = 0; t < 2; t++) {
            for (int m = 0; m < MODELS.length; m++) {
                int guaranteed = guarantees.get(t * 2 + m);
                int want = Math.min(guaranteed, pinnedDemand.getOrDefault(TEAMS[t] + "/" + MODELS[m], 0));
                assertThat(ModelGuaranteeProperties.heldOn(run, TEAMS[t], MODELS[m]))
                        .as("%s on %s, guaranteed %d, pinned demand %s", TEAMS[t], MODELS[m], guaranteed, pinnedDemand)
                        .isGreaterThanOrEqualTo(want);
            }
        }
        run.advance(Duration.ofMinutes(1));
        assertThat(run.requeue().actionsOf(PlanAction.Evict.class))
                .as("the re-queue after the plans settled")
                .isEmpty();
    }
}
