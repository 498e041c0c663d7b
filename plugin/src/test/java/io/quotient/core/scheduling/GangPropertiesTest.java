package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Gang;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Gangs under a random stream of deploys, finishes and re-queues, with two teams reclaiming from each other: a gang
 * is always booked whole (between its minimum and its size, one replica per distinct node, each with its GPUs) or
 * not at all, the capacity the scheduler books for every replica is really free (no GPU over-allocated), and jobs are
 * evicted only in a plan that places the job they made room for (gangs reclaim too).
 */
class GangPropertiesTest {

    /** deploy (kind 0: single job, 1: rigid gang, 2: elastic gang), finish (3) or re-queue (4). */
    record Step(int kind, int team, int size, int gpus) {}

    @Property(tries = 80)
    void neverAPartialGangBookedOrEvicted(
            @ForAll @IntRange(min = 2, max = 6) int nodes,
            @ForAll @IntRange(min = 0, max = 4) int guaranteeA,
            @ForAll("streams") List<Step> stream) {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(nodes, 4))
                .team("a", guaranteeA * 4)
                .team("b", (nodes - guaranteeA > 0 ? nodes - guaranteeA : 0) * 4);
        int serial = 0;
        for (Step step : stream) {
            String team = step.team() == 0 ? "a" : "b";
            String name = "j" + serial++;
            Plan plan = switch (step.kind()) {
                case 0 -> run.deploy(ClusterRun.job(team, name, step.gpus()));
                case 1 -> run.deploy(ClusterRun.gang(team, name, step.size(), step.size(), step.gpus()));
                case 2 -> run.deploy(ClusterRun.gang(team, name, step.size(), 1, step.gpus()));
                case 3 -> {
                    List<JobId> running = new ArrayList<>(run.placed.keySet());
                    if (!running.isEmpty()) {
                        JobId gone = running.get(step.size() % running.size());
                        run.finish(gone.team(), gone.name());
                    }
                    yield Plan.EMPTY;
                }
                default -> run.requeue();
            };
            run.advance(Duration.ofMinutes(5));
            for (PlanAction.Evict evict : plan.actionsOf(PlanAction.Evict.class)) {
                assertThat(run.placed).as("an evicted job holds nothing").doesNotContainKey(evict.job());
            }
            if (!plan.actionsOf(PlanAction.Evict.class).isEmpty()) {
                assertThat(plan.actionsOf(PlanAction.Place.class))
                        .as("nothing is evicted for a claimant that then" + " still waits (a gang claimant included)")
                        .isNotEmpty();
            }
            for (PlacedJob job : run.placed.values()) {
                Gang gang = job.spec().gang();
                int devices = job.spec().gpu().devices();
                assertThat(job.replicas().size())
                        .as("replicas of %s", job.id())
                        .isBetween(gang.minReplicas(), gang.replicas());
                Set<String> distinct = new HashSet<>();
                job.replicas().forEach(r -> distinct.add(r.node()));
                assertThat(distinct)
                        .as("one replica per node")
                        .hasSize(job.replicas().size());
                assertThat(job.replicas())
                        .allSatisfy(r -> assertThat(r.gpuIndices()).hasSize(devices));
            }
        }
    }

    @Provide
    Arbitrary<List<Step>> streams() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 4),
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.integers().between(1, 4))
                .as(Step::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(30);
    }
}
