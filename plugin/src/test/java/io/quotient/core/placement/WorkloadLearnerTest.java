package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class WorkloadLearnerTest {

    private static final ResourceDemand WHOLE = ResourceDemand.gpus(8_000, 1024, 1, 1000, Set.of());
    private static final ResourceDemand HALF_ON_T4 = ResourceDemand.gpus(4_000, 1024, 1, 500, Set.of("T4"));
    private static final ResourceDemand CPU_ONLY = ResourceDemand.cpuOnly(2_000, 1024);

    @Test
    void theFallbackUntilEnoughJobsWereSeenThenTheirShapesWithTheirModels() {
        TargetWorkload typical = TargetWorkload.typical();
        WorkloadLearner learner = new WorkloadLearner(typical, new WorkloadLearner.Settings(100, 10, 5));
        List<ResourceDemand> seen = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ResourceDemand d = i % 3 == 0 ? HALF_ON_T4 : WHOLE;
            seen.add(d);
            learner.observe(d);
        }
        assertThat(learner.current()).isSameAs(typical);
        assertThat(learner.learned()).isFalse();
        seen.add(CPU_ONLY);
        learner.observe(CPU_ONLY);
        assertThat(learner.learned()).isTrue();
        assertThat(learner.current()).isEqualTo(TargetWorkload.fromDemands(seen));
        assertThat(learner.current().shapes()).anySatisfy(s -> {
            assertThat(s.allowedModels()).containsExactly("T4");
            assertThat(s.gpuMilli()).isEqualTo(500);
            assertThat(s.probability()).isEqualTo(0.3, Assertions.within(1e-9));
        });
    }

    @Test
    void onlyTheLastWindowOfJobsCounts() {
        WorkloadLearner learner =
                new WorkloadLearner(TargetWorkload.typical(), new WorkloadLearner.Settings(20, 10, 1));
        for (int i = 0; i < 20; i++) {
            learner.observe(WHOLE);
        }
        for (int i = 0; i < 20; i++) {
            learner.observe(HALF_ON_T4);
        }
        assertThat(learner.current()).isEqualTo(TargetWorkload.fromDemands(Collections.nCopies(20, HALF_ON_T4)));
        assertThat(learner.seen()).isEqualTo(40);
    }

    @Test
    void refittedOnlyEveryIntervalSoTheSameInstanceServesInBetween() {
        WorkloadLearner learner =
                new WorkloadLearner(TargetWorkload.typical(), new WorkloadLearner.Settings(100, 10, 5));
        for (int i = 0; i < 10; i++) {
            learner.observe(WHOLE);
        }
        TargetWorkload first = learner.current();
        for (int i = 0; i < 4; i++) {
            learner.observe(HALF_ON_T4);
            assertThat(learner.current()).isSameAs(first);
        }
        learner.observe(HALF_ON_T4);
        assertThat(learner.current())
                .isNotSameAs(first)
                .isEqualTo(TargetWorkload.fromDemands(
                        concat(Collections.nCopies(10, WHOLE), Collections.nCopies(5, HALF_ON_T4))));
    }

    @Test
    void aYoungSampleIsRefittedEachTimeItGrewByHalfThenAtTheSteadyInterval() {
        WorkloadLearner learner =
                new WorkloadLearner(TargetWorkload.typical(), new WorkloadLearner.Settings(1000, 10, 20));
        List<Integer> fittedAt = new ArrayList<>();
        TargetWorkload last = learner.current();
        for (int seen = 1; seen <= 120; seen++) {
            learner.observe(seen % 2 == 0 ? WHOLE : HALF_ON_T4);
            if (learner.current() != last) {
                fittedAt.add(seen);
                last = learner.current();
            }
        }
        // 10, then half the sample fitted last (5, 7, 11, 16) until the steady 20
        assertThat(fittedAt).containsExactly(10, 15, 22, 33, 49, 69, 89, 109);
    }

    @Test
    void theSameJobsTeachTheSameWorkload() {
        Random random = new Random(7);
        List<ResourceDemand> jobs = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            jobs.add(ResourceDemand.gpus(
                    1_000 * (1 + random.nextInt(8)),
                    1024,
                    1 + random.nextInt(2),
                    100 * (1 + random.nextInt(10)),
                    random.nextBoolean() ? Set.of() : Set.of("T4", "G2")));
        }
        WorkloadLearner a = new WorkloadLearner(TargetWorkload.typical());
        WorkloadLearner b = new WorkloadLearner(TargetWorkload.typical());
        jobs.forEach(a::observe);
        jobs.forEach(b::observe);
        assertThat(a.current()).isEqualTo(b.current()).isNotEqualTo(TargetWorkload.typical());
    }

    @Test
    void badSettingsAndMibSharesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new WorkloadLearner.Settings(10, 20, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minimumSeen=20")
                .hasMessageContaining("window=10");
        assertThatThrownBy(() -> new WorkloadLearner(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fallback");
        WorkloadLearner learner = new WorkloadLearner(TargetWorkload.typical());
        assertThatThrownBy(() -> learner.observe(new ResourceDemand(1000, 1024, 1, 0, 4096, Set.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MiB");
        assertThat(learner.seen()).isZero();
    }

    private static List<ResourceDemand> concat(List<ResourceDemand> a, List<ResourceDemand> b) {
        List<ResourceDemand> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
