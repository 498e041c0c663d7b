package io.quotient.core.placement;

/**
 * How much of a node's idle GPU capacity (in GPU milli) a measure counts as lost, from the node's GPU
 * model, free CPU and the free share of each GPU. Gradient policies place where it grows least.
 */
@FunctionalInterface
interface NodeMeasure {

    /** The measure of a node with the first {@code gpuCount} entries of {@code gpuFree} as its GPUs' free share. */
    double of(String model, long freeCpu, int[] gpuFree, int gpuCount);
}
