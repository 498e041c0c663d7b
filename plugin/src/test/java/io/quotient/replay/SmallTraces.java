package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Small random traces for the engine's properties: a few teams, nodes of 4 GPUs, jobs of every kind the engine runs. */
final class SmallTraces {

    static final int GPUS_PER_NODE = 4;

    /** One generated input. */
    record Input(List<NodeSpec> nodes, Map<String, Team> teams, List<ReplayJob> jobs) {}

    private SmallTraces() {}

    static Input generate(long seed) {
        Random random = new Random(seed);
        List<NodeSpec> nodes = ClusterSize.uniform(2 + random.nextInt(3), GPUS_PER_NODE);
        int capacity = nodes.size() * GPUS_PER_NODE;
        Map<String, Team> teams = new LinkedHashMap<>();
        int teamCount = 2 + random.nextInt(2);
        int left = capacity;
        for (int t = 0; t < teamCount; t++) {
            int guarantee = t == teamCount - 1 ? random.nextInt(left + 1) : random.nextInt(left / 2 + 1);
            left -= guarantee;
            teams.put("team-" + t, Team.of("team-" + t, guarantee));
        }
        List<ReplayJob> jobs = new ArrayList<>();
        int count = 5 + random.nextInt(25);
        for (int j = 0; j < count; j++) {
            jobs.add(job(random, j, teamCount, capacity));
        }
        jobs.sort(Comparator.comparingLong(ReplayJob::submitMs).thenComparing(ReplayJob::name));
        return new Input(nodes, teams, Gangs.formed(jobs, nodes));
    }

    private static ReplayJob job(Random random, int index, int teamCount, int capacity) {
        String team = "team-" + random.nextInt(teamCount);
        long submit = 1_500_000_000_000L + random.nextInt(10 * 3600) * 1000L;
        long duration = (60 + random.nextInt(5 * 3600)) * 1000L;
        GpuRequest gpu = random.nextInt(5) == 0
                ? new GpuRequest.Fraction(250 * (1 + random.nextInt(3)), 1000, 1)
                : new GpuRequest.WholeGpus(Math.min(capacity, 1 << random.nextInt(4)));
        boolean preemptible = random.nextInt(6) != 0;
        long checkpoint = random.nextInt(4) * 15 * 60_000L;
        Duration minRuntime = random.nextInt(4) == 0 ? Duration.ofMinutes(random.nextInt(60)) : Duration.ZERO;
        return new ReplayJob(
                "job-" + index,
                team,
                submit,
                duration,
                gpu,
                1000,
                1024,
                Set.of(),
                1,
                JobKind.TRAIN,
                random.nextInt(3) == 0 ? 1 : 0,
                preemptible,
                checkpoint,
                minRuntime,
                IdleProfile.BUSY);
    }
}
