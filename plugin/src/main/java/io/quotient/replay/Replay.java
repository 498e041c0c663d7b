package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Team;
import java.util.List;
import java.util.Map;

/** One policy replayed on one input and measured: the engine with the metrics recorder. */
public final class Replay {

    private Replay() {}

    /**
     * @param jobs sorted by submission, gangs formed for these nodes ({@link Gangs})
     * @param teams the configured teams (the policy may show the scheduler others; the metrics use these)
     */
    public static ReplayResult run(
            ReplayPolicy policy, List<NodeSpec> nodes, Map<String, Team> teams, List<ReplayJob> jobs) {
        MetricsRecorder recorder = new MetricsRecorder(teams, jobs, nodes);
        ReplayOutcome outcome = new ReplayEngine(nodes, teams, policy).run(jobs, recorder);
        return recorder.result(outcome, nodes);
    }
}
