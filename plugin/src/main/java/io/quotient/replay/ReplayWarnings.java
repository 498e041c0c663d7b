package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What makes a replay's figures mean less than they seem, said before it runs: jobs that ask for more GPUs than the
 * whole cluster has (they wait for ever, count as not done, and their demand still enters the fair shares), and
 * guarantees that together exceed the cluster (they are met in proportion, so no team can reach its own).
 */
public final class ReplayWarnings {

    private ReplayWarnings() {}

    public static List<String> of(List<ReplayJob> jobs, List<NodeSpec> nodes, Map<String, Team> teams) {
        List<String> warnings = new ArrayList<>();
        long clusterMilli = nodes.stream().mapToLong(n -> n.gpuCount() * 1000L).sum();
        List<ReplayJob> tooLarge =
                jobs.stream().filter(j -> j.gpuMilli(nodes) > clusterMilli).toList();
        if (!tooLarge.isEmpty()) {
            long largest =
                    tooLarge.stream().mapToLong(j -> j.gpuMilli(nodes)).max().orElse(0);
            warnings.add(String.format(
                    Locale.ROOT,
                    "%d job(s) ask for more GPUs than the cluster's %d (the largest %s, job %s of team %s): they"
                            + " never run and count as not done; give more nodes (--nodes, --load) or leave them out",
                    tooLarge.size(),
                    clusterMilli / 1000,
                    gpus(largest),
                    tooLarge.get(0).name(),
                    tooLarge.get(0).team()));
        }
        long guaranteed = teams.values().stream()
                .filter(t -> t.department() == null)
                .mapToLong(Team::guaranteedMilli)
                .sum();
        guaranteed += teams.values().stream()
                .filter(t -> t.department() != null)
                .map(Team::department)
                .distinct()
                .mapToLong(d -> d.guaranteedMilli())
                .sum();
        if (guaranteed > clusterMilli) {
            warnings.add(String.format(
                    Locale.ROOT,
                    "the guarantees total %s GPUs on a cluster of %d: they are met in proportion, and no team can"
                            + " reach its own; size the cluster to them (--nodes) or scale the teams file",
                    gpus(guaranteed),
                    clusterMilli / 1000));
        }
        return warnings;
    }

    private static String gpus(long milli) {
        return milli % 1000 == 0 ? Long.toString(milli / 1000) : String.format(Locale.ROOT, "%.3f", milli / 1000.0);
    }
}
