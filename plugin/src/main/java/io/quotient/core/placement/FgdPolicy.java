package io.quotient.core.placement;

/**
 * Fragmentation Gradient Descent (FGD, USENIX ATC '23) as its simulator implements it: place where the
 * node's fragmentation F_n(M) ({@link FragmentationMeasure}) grows least, scored
 * {@code ⌊100 · sigmoid((F_before − F_after)/1000)⌋}; a fraction goes to the first GPU with the best score.
 */
final class FgdPolicy extends GradientPolicy {

    FgdPolicy(long seed, TargetWorkload workload) {
        super("fgd", seed, new FragmentationMeasure(workload), false);
    }
}
