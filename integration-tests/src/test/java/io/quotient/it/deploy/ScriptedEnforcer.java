package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays a node enforcer for one pod: every report period it adds the time since its last report to the pod's
 * cumulative counters on each of its GPUs (busy time at the utilization the test set, {@link #utilization}) and
 * publishes them in the node's report. What it published last is the ground truth accounting must arrive at.
 */
final class ScriptedEnforcer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ScriptedEnforcer.class.getName());
    private static final long MEMORY_MIB = 2048;

    /** What the enforcer published: seconds on each GPU and busy GPU-seconds over all of them. */
    record Published(Instant at, double presentSeconds, double busyGpuSeconds) {}

    private final ApiClient client;
    private final String node;
    private final V1Pod pod;
    private final List<String> gpus;
    private final Instant countingSince;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "scripted-enforcer");
        thread.setDaemon(true);
        return thread;
    });
    private final double[] busy;
    private double[] percent;
    private Instant last;
    private double present;
    private volatile Published published;
    private final AtomicInteger failures = new AtomicInteger();

    private ScriptedEnforcer(ApiClient client, String node, V1Pod pod, List<String> gpus) {
        this.client = client;
        this.node = node;
        this.pod = pod;
        this.gpus = List.copyOf(gpus);
        this.busy = new double[gpus.size()];
        this.percent = new double[gpus.size()];
        this.countingSince = Instant.now();
        this.last = countingSince;
        this.published = new Published(countingSince, 0, 0);
    }

    /** Starts counting the pod on these GPUs now, idle, publishing every {@code period}. */
    static ScriptedEnforcer start(ApiClient client, String node, V1Pod pod, List<String> gpus, Duration period) {
        ScriptedEnforcer enforcer = new ScriptedEnforcer(client, node, pod, gpus);
        enforcer.loop.scheduleAtFixedRate(enforcer::publishSafely, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return enforcer;
    }

    /** From the next report on, the GPUs are busy at these percentages (one per GPU, in order). */
    synchronized void utilization(double... percentPerGpu) {
        if (percentPerGpu.length != gpus.size()) {
            throw new IllegalArgumentException(
                    "one utilization per GPU: " + gpus.size() + " expected, got " + percentPerGpu.length);
        }
        advance(Instant.now()); // the time so far was at the previous rate
        percent = percentPerGpu.clone();
    }

    /** The counters of the last report written to the node. */
    Published published() {
        return published;
    }

    private void publishSafely() {
        try {
            publish();
        } catch (RuntimeException e) {
            // the next report carries the totals (they are cumulative): a failed write costs nothing
            failures.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, "publishing the usage of node " + node + " failed: " + e);
        }
    }

    private void publish() {
        Instant windowStart;
        Instant now = Instant.now();
        List<NodeReports.GpuCounters> counters = new ArrayList<>();
        double busyTotal;
        double presentNow;
        synchronized (this) {
            windowStart = published.at();
            advance(now);
            busyTotal = 0;
            for (int i = 0; i < gpus.size(); i++) {
                double windowSeconds = Duration.between(windowStart, now).toNanos() / 1e9;
                counters.add(new NodeReports.GpuCounters(
                        gpus.get(i), countingSince, windowSeconds, percent[i], present, busy[i], MEMORY_MIB));
                busyTotal += busy[i];
            }
            presentNow = present;
        }
        NodeReports.writeUsage(
                client,
                node,
                windowStart,
                now,
                List.of(NodeReports.pod(
                        pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(),
                        pod.getMetadata().getUid(),
                        counters)));
        published = new Published(now, presentNow, busyTotal);
    }

    /** Counts the time since the last advance at the current utilization. */
    private void advance(Instant now) {
        double seconds = Duration.between(last, now).toNanos() / 1e9;
        for (int i = 0; i < busy.length; i++) {
            busy[i] += percent[i] / 100 * seconds;
        }
        present += seconds;
        last = now;
    }

    /** Stops publishing; returns how many publications failed (each was carried by the next). */
    int stop() {
        loop.shutdownNow();
        try {
            loop.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return failures.get();
    }

    @Override
    public void close() {
        stop();
    }
}
