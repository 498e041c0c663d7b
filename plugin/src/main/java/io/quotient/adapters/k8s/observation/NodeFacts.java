package io.quotient.adapters.k8s.observation;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.quotient.core.cluster.NodeSpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What Quotient reads from a Node: capacities from its allocatable resources, GPU facts from
 * GPU-feature-discovery labels ({@code nvidia.com/gpu.count}, {@code .memory} in MiB, {@code .product}) and the
 * node enforcer's report, and whether it can take work at all (Ready, not cordoned).
 */
public final class NodeFacts {

    public static final String GPU_RESOURCE = "nvidia.com/gpu";
    static final String GPU_COUNT_LABEL = "nvidia.com/gpu.count";
    public static final String GPU_MEMORY_LABEL = "nvidia.com/gpu.memory";
    public static final String GPU_PRODUCT_LABEL = "nvidia.com/gpu.product";
    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);

    private NodeFacts() {}

    /** The node as the scheduler sees it; empty for nodes that are not Ready, cordoned, or have no GPU. */
    static Optional<NodeSpec> spec(V1Node node) {
        if (node.getMetadata() == null
                || node.getStatus() == null
                || !ready(node)
                || (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable()))) {
            return Optional.empty();
        }
        Map<String, Quantity> allocatable = node.getStatus().getAllocatable() == null
                ? Map.of()
                : node.getStatus().getAllocatable();
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        int gpus = allocatable.containsKey(GPU_RESOURCE)
                ? allocatable.get(GPU_RESOURCE).getNumber().intValue()
                : parseLong(labels.get(GPU_COUNT_LABEL)).orElse(0L).intValue();
        if (gpus <= 0) {
            return Optional.empty();
        }
        long cpuMilli = allocatable.containsKey("cpu")
                ? allocatable.get("cpu").getNumber().movePointRight(3).longValue()
                : 0;
        long memoryMib = allocatable.containsKey("memory")
                ? allocatable
                        .get("memory")
                        .getNumber()
                        .divide(MIB, RoundingMode.FLOOR)
                        .longValue()
                : 0;
        long gpuMemoryMib = parseLong(labels.get(GPU_MEMORY_LABEL))
                .or(() -> report(node).flatMap(GpuReport::gpuMemoryMib))
                .orElse(0L);
        return Optional.of(new NodeSpec(
                node.getMetadata().getName(),
                cpuMilli,
                memoryMib,
                gpus,
                labels.getOrDefault(GPU_PRODUCT_LABEL, ""),
                gpuMemoryMib));
    }

    /** Whether the node's enforcer reported ready within {@code freshness}: only then may fractions go there. */
    static boolean fractionReady(V1Node node, Instant now, Duration freshness) {
        return fractionReady(report(node), now, freshness);
    }

    /** The same, on a report already parsed. */
    static boolean fractionReady(Optional<GpuReport> report, Instant now, Duration freshness) {
        return report.map(r -> r.readyAt(now, freshness)).orElse(false);
    }

    static Optional<GpuReport> report(V1Node node) {
        Map<String, String> annotations =
                node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        return annotations == null ? Optional.empty() : GpuReport.parse(annotations.get(GpuReport.ANNOTATION));
    }

    private static boolean ready(V1Node node) {
        if (node.getStatus().getConditions() == null) {
            return false;
        }
        for (V1NodeCondition condition : node.getStatus().getConditions()) {
            if ("Ready".equals(condition.getType())) {
                return "True".equals(condition.getStatus());
            }
        }
        return false;
    }

    private static Optional<Long> parseLong(String value) {
        try {
            return value == null ? Optional.empty() : Optional.of(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
