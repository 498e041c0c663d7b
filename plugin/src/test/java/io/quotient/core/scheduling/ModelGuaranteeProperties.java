package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.A100;
import static io.quotient.core.scheduling.ModelGuaranteeScenariosTest.H100;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Guarantees per GPU model under random streams: three teams whose guarantees are split between H100s and A100s
 * (each group's guarantees together within that model's GPUs), jobs of one GPU pinned to a model or not, deployed in
 * random order by random teams; after the plans settle, every team holds in each group at least min(its guarantee
 * there, what its jobs pinned to that model ask), and the re-queue stops evicting (no cycles).
 */
class ModelGuaranteeProperties {

    private static final String[] TEAMS = {"t0", "t1", "t2"};
    private static final String[] MODELS = {H100, A100};

    /**
     * @param guarantees per team, its H100 then A100 guarantee, in GPUs (scaled down to fit 8 GPUs of each model)
     * @param stream     per job: team (0..2), pin (0 H100, 1 A100, 2 none)
     */
    @Property(tries = 60)
    void noTeamEndsBelowItsGuaranteePerGroupAndReclaimStops(
            @ForAll @Size(6) List<@IntRange(min = 0, max = 4) Integer> guarantees,
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 8) Integer> stream) {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ModelGuaranteeScenariosTest.cluster(2, 2));
        int[][] g = fit(guarantees);
        for (int t = 0; t < TEAMS.length; t++) {
            run.team(ModelGuaranteeScenariosTest.split(
                    TEAMS[t],
                    ModelGuaranteeScenariosTest.group(H100, g[t][0]),
                    ModelGuaranteeScenariosTest.group(A100, g[t][1])));
        }
        Map<String, Integer> pinnedDemand = new HashMap<>();
        for (int i = 0; i < stream.size(); i++) {
            int team = stream.get(i) % 3;
            int pin = stream.get(i) / 3;
            JobSpec job = pin < 2
                    ? ModelGuaranteeScenariosTest.pinned(TEAMS[team], "j" + i, 1, MODELS[pin])
                    : ClusterRun.job(TEAMS[team], "j" + i, 1);
            if (pin < 2) {
                pinnedDemand.merge(TEAMS[team] + "/" + MODELS[pin], 1, Integer::sum);
            }
            run.deploy(job);
            run.advance(Duration.ofSeconds(1));
        }
        for (int round = 0; round < 12; round++) {
            run.advance(Duration.ofMinutes(1));
            run.requeue();
        }
        for (int t = 0; t < TEAMS.length; t++) {
            for (int m = 0; m < MODELS.length; m++) {
                int want = Math.min(g[t][m], pinnedDemand.getOrDefault(TEAMS[t] + "/" + MODELS[m], 0));
                assertThat(heldOn(run, TEAMS[t], MODELS[m]))
                        .as("%s on %s, guaranteed %d, pinned demand %s", TEAMS[t], MODELS[m], g[t][m], pinnedDemand)
                        .isGreaterThanOrEqualTo(want);
            }
        }
        run.advance(Duration.ofMinutes(1));
        assertThat(run.requeue().actionsOf(PlanAction.Evict.class))
                .as("the re-queue after the plans settled")
                .isEmpty();
    }

    /** The guarantees scaled so that each model's add up to at most its 8 GPUs. */
    private static int[][] fit(List<Integer> raw) {
        int[][] g = new int[3][2];
        for (int m = 0; m < 2; m++) {
            int sum = 0;
            for (int t = 0; t < 3; t++) {
                g[t][m] = raw.get(t * 2 + m);
                sum += g[t][m];
            }
            for (int t = 0; sum > 8 && t < 3; t++) {
                int cut = Math.min(g[t][m], sum - 8);
                g[t][m] -= cut;
                sum -= cut;
            }
        }
        return g;
    }

    /** The whole GPUs the team holds on nodes of the model. */
    static long heldOn(ClusterRun run, String team, String model) {
        Map<String, String> models = Workspace.nodeModels(run.nodes);
        return run.placed.values().stream()
                        .filter(j -> j.spec().team().equals(team) && model.equals(models.get(j.node())))
                        .mapToLong(PlacedJob::gpuMilli)
                        .sum()
                / 1000;
    }
}
