package io.quotient.core.placement;

/**
 * The two constants of Quotient's policy. One setting for every cluster and trace; it is a type so that the
 * robustness benchmark can show how sensitive the results are to each (README, sensitivity table).
 *
 * @param reserveWeight  how much a milli taken from a model's {@link ModelReserve} counts against the forecast's
 *                       lost milli (1: the same)
 * @param rareSizeShare  fraction sizes making up less than this share of the fractional demand are not counted on
 *                       to fill gaps ({@link WasteForecast})
 */
public record QuotientSettings(double reserveWeight, double rareSizeShare) {

    /** Chosen on generated families (README: "Choosing the constants"). */
    public static final QuotientSettings DEFAULT = new QuotientSettings(1, 0.03);

    public QuotientSettings {
        if (!(reserveWeight >= 0) || !(rareSizeShare >= 0 && rareSizeShare < 1)) {
            throw new IllegalArgumentException("Quotient settings need a reserve weight of 0 or more and a rare-size "
                    + "share from 0 to below 1, were " + reserveWeight + " and " + rareSizeShare);
        }
    }
}
