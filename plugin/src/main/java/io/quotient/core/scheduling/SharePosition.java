package io.quotient.core.scheduling;

import java.util.Comparator;

/**
 * Where a team stands against its over-quota entitlement: what it borrows (GPUs beyond its guarantee, plus its
 * decayed past borrowing when usage decay is on) per unit of over-quota weight. The lower the position, the further
 * the team is below its entitlement and the sooner it is served; a team of weight 0 is entitled to no idle capacity,
 * so it comes after every team of positive weight, and among such teams the one borrowing less comes first (a
 * quotient by 0 would make them all equal and leave the order to team names).
 *
 * @param noEntitlement whether the team's over-quota weight is 0
 * @param value         borrowed milli per unit of weight; for a team of weight 0, borrowed milli
 */
record SharePosition(boolean noEntitlement, double value) implements Comparable<SharePosition> {

    private static final Comparator<SharePosition> ORDER =
            Comparator.comparing(SharePosition::noEntitlement).thenComparingDouble(SharePosition::value);

    /**
     * @param borrowedMilli what the team borrows, in milli (now, plus its decayed past when decay is on)
     * @param weight        the team's over-quota weight
     */
    static SharePosition of(double borrowedMilli, double weight) {
        return weight > 0 ? new SharePosition(false, borrowedMilli / weight) : new SharePosition(true, borrowedMilli);
    }

    @Override
    public int compareTo(SharePosition o) {
        return ORDER.compare(this, o);
    }
}
