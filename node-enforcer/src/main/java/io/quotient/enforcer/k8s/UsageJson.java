package io.quotient.enforcer.k8s;

import io.quotient.enforcer.core.NodeUsage;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code usage} object of the node report (docs/usage.md names every field). Seconds carry one
 * decimal and utilization one, enough for accounting and short enough for an annotation; memory is in
 * MiB as elsewhere in the report. An unmeasured utilization is left out rather than written as -1.
 */
final class UsageJson {

    private static final double MIB = 1 << 20;

    private UsageJson() {}

    static Map<String, Object> of(NodeUsage usage) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("windowStart", DateTimeFormatter.ISO_INSTANT.format(usage.windowStart()));
        json.put("windowEnd", DateTimeFormatter.ISO_INSTANT.format(usage.windowEnd()));
        json.put("samples", usage.samples());
        json.put("pods", usage.pods().stream().map(UsageJson::pod).toList());
        return json;
    }

    private static Map<String, Object> pod(NodeUsage.PodUsage pod) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("namespace", pod.pod().namespace());
        json.put("name", pod.pod().name());
        json.put("uid", pod.pod().uid());
        if (!pod.pod().team().isEmpty() && !pod.pod().job().isEmpty()) {
            json.put("team", pod.pod().team());
            json.put("job", pod.pod().job());
        }
        List<Map<String, Object>> gpus = pod.gpus().stream().map(UsageJson::gpu).toList();
        json.put("gpus", gpus);
        return json;
    }

    private static Map<String, Object> gpu(NodeUsage.GpuUsage gpu) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("uuid", gpu.gpuUuid());
        json.put("source", gpu.source().jsonName());
        NodeUsage.Window window = gpu.window();
        json.put("windowSeconds", tenths(window.seconds()));
        if (window.utilizationPercent() >= 0) {
            json.put("utilizationPercent", tenths(window.utilizationPercent()));
        }
        json.put("memoryUsedMib", Math.round(window.memoryMeanBytes() / MIB));
        json.put("memoryPeakMib", Math.round(window.memoryPeakBytes() / MIB));
        NodeUsage.Totals totals = gpu.totals();
        json.put("countingSince", DateTimeFormatter.ISO_INSTANT.format(totals.countingSince()));
        json.put("presentSeconds", tenths(totals.presentSeconds()));
        json.put("measuredSeconds", tenths(totals.measuredSeconds()));
        json.put("busyGpuSeconds", tenths(totals.busyGpuSeconds()));
        json.put("memoryMibSeconds", Math.round(totals.memoryByteSeconds() / MIB));
        return json;
    }

    private static double tenths(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
