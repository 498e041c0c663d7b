package io.quotient.adapters.rest;

import io.quotient.deploy.Reports;
import java.util.List;

/**
 * The cluster's GPUs: who holds which share of each, what is free, and fragmentation as docs/research/packing.md
 * measures it (idle GPU capacity that the expected job shapes could not use).
 */
public record ClusterView(
        double totalGpus,
        double freeGpus,
        int wholeFreeGpus,
        int wholeFreeNodes,
        Fragmentation fragmentation,
        List<NodeView> nodes) {

    /** @param amountPercent 100 × stranded / all GPUs; @param ratioPercent 100 × stranded / free GPUs */
    public record Fragmentation(double amountPercent, double ratioPercent, double fragmentedGpus) {}

    public record NodeView(
            String name,
            String gpuModel,
            long gpuMemoryMib,
            int gpuCount,
            boolean fractionReady,
            double freeGpus,
            double fragmentedGpus,
            List<GpuView> gpus) {}

    public record GpuView(int index, String uuid, double free, List<ShareView> jobs) {}

    public record ShareView(String team, String name, double share) {}

    public static ClusterView of(Reports.ClusterUsage usage) {
        double fragmented = usage.nodes().stream()
                .mapToDouble(Reports.NodeUsage::fragmentedMilli)
                .sum();
        return new ClusterView(
                TeamView.gpus(usage.totalMilli()),
                TeamView.gpus(usage.freeMilli()),
                usage.wholeFreeGpus(),
                usage.wholeFreeNodes(),
                new Fragmentation(
                        round(usage.fragmentationAmountPercent()),
                        round(usage.fragmentationRatioPercent()),
                        round(fragmented / 1000)),
                usage.nodes().stream().map(ClusterView::node).toList());
    }

    private static NodeView node(Reports.NodeUsage n) {
        var spec = n.spec();
        return new NodeView(
                spec.name(),
                spec.gpuModel(),
                spec.gpuMemoryMib(),
                spec.gpuCount(),
                n.fractionReady(),
                TeamView.gpus(n.freeMilli()),
                round(n.fragmentedMilli() / 1000),
                n.gpus().stream()
                        .map(g -> new GpuView(
                                g.index(),
                                g.reservationUuid(),
                                TeamView.gpus(g.freeMilli()),
                                g.holders().stream()
                                        .map(h -> new ShareView(
                                                h.job().team(), h.job().name(), TeamView.gpus(h.milli())))
                                        .toList()))
                        .toList());
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
