package io.quotient.core.request;

import java.util.List;

/**
 * Where a request may run, as written: the GPU models it accepts. The request has no node selector, affinity or
 * tolerations of its own: Quotient chooses the node, and the template pins the workload there.
 *
 * @param models allowed GPU models ({@code gpuModels}) in the order written, so that a refusal names the entry; empty
 *     or null means any
 */
public record Placement(List<String> models) {

    /** Any node with the GPUs asked for. */
    public static final Placement ANYWHERE = new Placement(null);
}
