package io.quotient.enforcer.app;

import io.quotient.enforcer.core.ByteSizes;
import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementListener;
import io.quotient.enforcer.core.KillDecision;
import io.quotient.enforcer.core.PodDirectory;
import io.quotient.enforcer.core.PodInfo;
import io.quotient.enforcer.core.ProcessSignaller;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs kills (and dry-run decisions) with the node, team and job they are about, and budget problems once. */
final class KillLog implements EnforcementListener {

    private static final Logger LOG = LoggerFactory.getLogger(KillLog.class);

    private final String node;
    private final PodDirectory pods;
    private Set<String> reportedProblems = Set.of();
    private String lastUnavailable = "";

    KillLog(String node, PodDirectory pods) {
        this.node = node;
        this.pods = pods;
    }

    @Override
    public void onKill(KillDecision decision, ProcessSignaller.Result result, boolean forced) {
        Map<String, String> labels =
                pods.byUid(decision.container().podUid()).map(PodInfo::labels).orElse(Map.of());
        String team = labels.getOrDefault("quotient.io/team", "-");
        String job = labels.getOrDefault("quotient.io/job", "-");
        String what = result == ProcessSignaller.Result.DRY_RUN ? "DRY-RUN would kill" : forced ? "SIGKILL" : "SIGTERM";
        LOG.warn(
                "{} pid {} ({}) on node {} team {} job {}: {} [{}; result {}]",
                what,
                decision.target().pid(),
                ByteSizes.format(decision.processBytes()),
                node,
                team,
                job,
                decision.explanation(),
                decision.reason().eventReason(),
                result);
    }

    @Override
    public void onCycle(CycleReport report) {
        if (!report.gpusAvailable() && !report.unavailableReason().equals(lastUnavailable)) {
            LOG.error("Node {}: {}", node, report.unavailableReason());
        } else if (report.gpusAvailable() && !lastUnavailable.isEmpty()) {
            LOG.info("Node {}: GPUs readable again", node);
        }
        lastUnavailable = report.gpusAvailable() ? "" : report.unavailableReason();
        List<String> problems = report.plan().problems();
        Set<String> current = new HashSet<>(problems);
        for (String problem : problems) {
            if (!reportedProblems.contains(problem)) {
                LOG.warn("Node {}: {}", node, problem);
            }
        }
        reportedProblems = current;
    }
}
