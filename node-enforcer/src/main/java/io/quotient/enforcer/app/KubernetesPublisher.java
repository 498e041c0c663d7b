package io.quotient.enforcer.app;

import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementListener;
import io.quotient.enforcer.core.EnforcerHealth;
import io.quotient.enforcer.core.KillDecision;
import io.quotient.enforcer.core.NodeReport;
import io.quotient.enforcer.core.ProcessSignaller;
import io.quotient.enforcer.core.ReportSchedule;
import io.quotient.enforcer.core.UsageMeter;
import io.quotient.enforcer.k8s.KubernetesReporter;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends kills (as Events) and the node report to the API server on a thread of its own, so a slow
 * API server never delays enforcement. Each cycle's usage readings are added up in a {@link UsageMeter};
 * each published report carries its window and totals, and starts the next window. The queue is bounded:
 * under a flood, writes are dropped and logged.
 */
final class KubernetesPublisher implements EnforcementListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesPublisher.class);

    private final KubernetesReporter reporter;
    private final EnforcerHealth health;
    private final ReportSchedule schedule;
    private final Clock clock;
    private final UsageMeter usage;
    private final ExecutorService writer = new ThreadPoolExecutor(
            1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256), r -> new Thread(r, "kubernetes-writer"));
    private volatile NodeReport lastReport;
    private Instant lastPublishedAt = Instant.EPOCH;

    KubernetesPublisher(
            KubernetesReporter reporter,
            EnforcerHealth health,
            ReportSchedule schedule,
            Clock clock,
            UsageMeter usage) {
        this.reporter = reporter;
        this.health = health;
        this.schedule = schedule;
        this.clock = clock;
        this.usage = usage;
    }

    @Override
    public void onKill(KillDecision decision, ProcessSignaller.Result result, boolean forced) {
        if (result == ProcessSignaller.Result.SIGNALLED) {
            submit(
                    "the Event for the kill of pid " + decision.target().pid(),
                    () -> reporter.recordKill(decision, forced));
        }
    }

    @Override
    public void onCycle(CycleReport report) {
        Instant now = clock.instant();
        if (report.gpusAvailable()) {
            usage.record(report.usage(), now);
        } else {
            usage.skip(now);
        }
        NodeReport next = NodeReport.of(report, health.state(), now, usage.report(now));
        if (schedule.shouldPublish(next, lastReport, lastPublishedAt)) {
            usage.closeWindow(now);
            lastReport = next;
            lastPublishedAt = next.updatedAt();
            submit("the node report", () -> reporter.publishReport(next));
        }
    }

    @FunctionalInterface
    private interface Write {
        void run() throws Exception;
    }

    private void submit(String what, Write write) {
        try {
            writer.execute(() -> {
                try {
                    write.run();
                } catch (Exception e) {
                    LOG.warn(
                            "Could not write {} to the API server: {}; it is retried with the next change",
                            what,
                            e.toString());
                    if (what.equals("the node report")) {
                        lastReport = null; // publish again next cycle
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.warn("Dropped {}: the API server writes are {} behind", what, 256);
        }
    }

    @Override
    public void close() {
        writer.shutdownNow();
    }
}
