package io.quotient.core.placement;

/** Searches in ascending arrays, for the measures that keep their shapes' asks sorted ({@link ShapeGroups}, {@link CpuShortfall}). */
final class Ascending {

    private Ascending() {}

    /** How many entries of the ascending array are at most {@code value}: the index of the first one above it. */
    static int countAtMost(double[] ascending, double value) {
        int low = 0;
        int high = ascending.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (ascending[middle] <= value) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}
