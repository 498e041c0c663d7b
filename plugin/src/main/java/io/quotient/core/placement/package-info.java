/**
 * Where a job lands: placement policies score every node that passes the filter and fits, take the best, and choose
 * the GPUs on it. Entry points: {@link PlacementPolicies} (a policy by name) and
 * {@link GangPlacer} (a gang, one replica per node, all or nothing).
 *
 * <h2>Quotient's packing score, piece by piece</h2>
 *
 * The default policy ({@code QuotientPolicy}, "quotient") scores a node for a demand in this order; each piece is
 * one class:
 * <ol>
 *   <li><b>Node loop and ties</b> ({@code ScoringPolicy}): every node that passes the filter and fits is scored, the
 *       highest wins, ties go to a seeded node order ({@link TieBreak});
 *   <li><b>Gradient</b> ({@code GradientPolicy}): the score is {@code ⌊100 · sigmoid((before − after)/1000)⌋}, how
 *       much a measure of lost GPU capacity falls if the demand lands there, memoised per node state
 *       ({@code NodeScoreMemo}, {@code NodeFragmentationCache}); a fraction tries every GPU that fits
 *       ({@code GpuPicker} picks the tightest GPUs for the others); among equal scores the GPU left tightest wins;
 *   <li><b>The measure</b> ({@code QuotientPolicy.ClusterForecast}): the sum of
 *       <ul>
 *         <li>{@code WasteForecast}: the capacity the node is likely to lose for good against the
 *             {@link TargetWorkload} (slivers, shapes the node cannot host, CPU too small
 *             for the GPUs, the latter class by class in {@code CpuShortfall} where CPU is short), fitted to the
 *             cluster's nodes; CPU-only demands are scored by it alone;
 *         <li>FGD's fragmentation ({@link FragmentationMeasure}, shapes counted together
 *             by {@code ShapeGroups}) times {@link QuotientSettings#fragmentationWeight()};
 *       </ul>
 *   <li><b>Model reserve</b> ({@code ModelReserve}): for a GPU demand, each GPU milli taken on a model that
 *       constrained jobs press on costs its reserve times {@link QuotientSettings#reserveWeight()},
 *       subtracted from the gradient's fall before it is quantised ({@code GradientPolicy.costPerMilli}).
 * </ol>
 *
 * The target workload comes from the jobs seen ({@link WorkloadLearner}) or a fitted one
 * ({@link ClusterFittedWorkload}). The reference policies (FGD, best fit, dot product,
 * clustering, packing, least allocated, random) share the node loop and, FGD, the gradient; their measured
 * comparison is in {@code docs/research/packing.md}.
 */
package io.quotient.core.placement;
