package io.quotient.enforcer.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds up each cycle's readings over time into the usage report: per pod and GPU, the means of the
 * current report window and running totals. A reading stands for the time since the previous cycle
 * (NVML's utilization covers the recent past), so a pod's first reading counts nothing and its time
 * is counted from then on; a gap longer than {@code maxGap} (a stalled loop, GPUs that could not be
 * read) is not counted at all rather than guessed. A pod that left keeps its totals in the report
 * for {@code retention}, so its last figures reach the reader even if one publication is lost.
 *
 * <p>Not thread-safe: the enforcement thread feeds it and reads the report.
 */
public final class UsageMeter {

    /** @param maxGap longest time between two cycles that is still counted */
    public record Settings(Duration maxGap, Duration retention) {}

    private record Key(String podUid, String gpuUuid) {}

    /** One pod on one GPU. */
    private static final class Account {
        PodRef pod;
        UtilizationSource source;
        final Instant countingSince;
        Instant lastSeen;
        double present;
        double measured;
        double busy;
        double memorySeconds;
        long lastMemory;
        double windowPresent;
        double windowMeasured;
        double windowBusy;
        double windowMemorySeconds;
        long windowPeak;

        Account(Instant countingSince) {
            this.countingSince = countingSince;
        }

        void add(PodGpuReading reading, double seconds) {
            pod = reading.pod();
            source = reading.source();
            present += seconds;
            windowPresent += seconds;
            memorySeconds += reading.memoryUsedBytes() * seconds;
            windowMemorySeconds += reading.memoryUsedBytes() * seconds;
            if (reading.measured()) {
                double busySeconds = reading.utilizationPercent() / 100.0 * seconds;
                measured += seconds;
                windowMeasured += seconds;
                busy += busySeconds;
                windowBusy += busySeconds;
            }
            lastMemory = reading.memoryUsedBytes();
            windowPeak = Math.max(windowPeak, reading.memoryUsedBytes());
        }

        void startWindow() {
            windowPresent = 0;
            windowMeasured = 0;
            windowBusy = 0;
            windowMemorySeconds = 0;
            windowPeak = 0;
        }

        NodeUsage.GpuUsage usage(String gpuUuid) {
            double utilization = windowMeasured > 0 ? 100.0 * windowBusy / windowMeasured : -1;
            long meanMemory = windowPresent > 0 ? Math.round(windowMemorySeconds / windowPresent) : lastMemory;
            return new NodeUsage.GpuUsage(
                    gpuUuid,
                    source,
                    new NodeUsage.Window(windowPresent, utilization, meanMemory, Math.max(windowPeak, meanMemory)),
                    new NodeUsage.Totals(countingSince, present, measured, busy, memorySeconds));
        }
    }

    private final Settings settings;
    private final Map<Key, Account> accounts = new LinkedHashMap<>();
    private Instant lastRecord;
    private Instant windowStart;
    private int windowSamples;

    public UsageMeter(Settings settings) {
        this.settings = settings;
    }

    /** Counts one cycle's readings, taken at {@code at}, for the time since the previous cycle. */
    public void record(List<PodGpuReading> readings, Instant at) {
        double seconds = countedSeconds(at);
        for (PodGpuReading reading : readings) {
            Key key = new Key(reading.pod().uid(), reading.gpuUuid());
            Account account = accounts.get(key);
            if (account == null) {
                account = new Account(at);
                accounts.put(key, account);
                account.add(reading, 0);
            } else {
                account.add(reading, seconds);
            }
            account.lastSeen = at;
        }
        lastRecord = at;
        windowSamples++;
    }

    /** A cycle that could not read the GPUs: the time since the previous cycle is not counted. */
    public void skip(Instant at) {
        countedSeconds(at);
        lastRecord = at;
    }

    /** The report as of {@code at}: this window's means and every retained pod's totals. */
    public NodeUsage report(Instant at) {
        Map<String, List<NodeUsage.GpuUsage>> gpusByPod = new LinkedHashMap<>();
        Map<String, PodRef> refs = new LinkedHashMap<>();
        for (Map.Entry<Key, Account> entry : accounts.entrySet()) {
            refs.put(entry.getKey().podUid(), entry.getValue().pod);
            gpusByPod
                    .computeIfAbsent(entry.getKey().podUid(), uid -> new ArrayList<>())
                    .add(entry.getValue().usage(entry.getKey().gpuUuid()));
        }
        List<NodeUsage.PodUsage> pods = new ArrayList<>();
        gpusByPod.forEach((uid, gpus) -> pods.add(new NodeUsage.PodUsage(refs.get(uid), gpus)));
        return new NodeUsage(windowStart == null ? at : windowStart, at, windowSamples, pods);
    }

    /** The report of the window ending at {@code at} was published: a new window starts. */
    public void closeWindow(Instant at) {
        windowStart = at;
        windowSamples = 0;
        Instant keepSince = at.minus(settings.retention());
        accounts.values().removeIf(account -> account.lastSeen.isBefore(keepSince));
        accounts.values().forEach(Account::startWindow);
    }

    private double countedSeconds(Instant at) {
        if (windowStart == null) {
            windowStart = at;
        }
        if (lastRecord == null || !at.isAfter(lastRecord)) {
            return 0;
        }
        Duration since = Duration.between(lastRecord, at);
        return since.compareTo(settings.maxGap()) > 0 ? 0 : since.toNanos() / 1e9;
    }
}
