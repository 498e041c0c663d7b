package io.quotient.core.placement;

/**
 * The three constants of Quotient's policy. One setting for every cluster and trace; it is a type so that the
 * robustness benchmark can show how sensitive the results are to each (docs/research/packing.md, "Choosing the
 * constants").
 *
 * @param reserveWeight       how much a milli taken from a model's {@link ModelReserve} counts against the
 *                            forecast's lost milli (1: the same)
 * @param rareSizeShare       fraction sizes making up less than this share of the fractional demand are not counted
 *                            on to fill gaps ({@link WasteForecast})
 * @param fragmentationWeight how much FGD's per-shape fragmentation ({@link FragmentationMeasure}) adds to the
 *                            forecast's lost milli (0: the forecast alone)
 */
public record QuotientSettings(double reserveWeight, double rareSizeShare, double fragmentationWeight) {

    /** Chosen on generated families (docs/research/packing.md, "Choosing the constants"). */
    public static final QuotientSettings DEFAULT = new QuotientSettings(1, 0.03, 0.05);

    public QuotientSettings {
        if (!(reserveWeight >= 0) || !(rareSizeShare >= 0 && rareSizeShare < 1) || !(fragmentationWeight >= 0)) {
            throw new IllegalArgumentException("Quotient settings need a reserve weight of 0 or more, a rare-size "
                    + "share from 0 to below 1 and a fragmentation weight of 0 or more, were " + reserveWeight + ", "
                    + rareSizeShare + " and " + fragmentationWeight);
        }
    }
}
