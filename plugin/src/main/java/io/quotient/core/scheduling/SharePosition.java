package io.quotient.core.scheduling;

import java.util.Comparator;

/**
 * Where a team stands against its over-quota entitlement: what it borrows (GPUs beyond its guarantee, plus its
 * decayed past borrowing when usage decay is on) per unit of over-quota weight. The lower the position, the further
 * the team is below its entitlement and the sooner it is served; a team of weight 0 is entitled to no idle capacity,
 * so it comes after every team of positive weight, and among such teams the one borrowing less comes first (a
 * quotient by 0 would make them all equal and leave the order to team names).
 *
 * <p>A team in a department is placed first by its department's position among the departments and the teams outside
 * any ({@code outer}: what the department borrows beyond its guarantee per unit of its weight), then by its own within
 * the department, as {@link FairShare} divides idle capacity on two levels (KAI-Scheduler's hierarchical queue order,
 * Kueue's fair-sharing tournament). A team outside any department is its own outer position.
 *
 * @param noEntitlement whether the team's over-quota weight is 0
 * @param value         borrowed milli per unit of weight; for a team of weight 0, borrowed milli
 * @param outer         the department's position, or null where it is the team's own
 */
record SharePosition(boolean noEntitlement, double value, SharePosition outer) implements Comparable<SharePosition> {

    private static final Comparator<SharePosition> OWN =
            Comparator.comparing(SharePosition::noEntitlement).thenComparingDouble(SharePosition::value);

    /**
     * @param borrowedMilli what the team borrows, in milli (now, plus its decayed past when decay is on)
     * @param weight        the team's over-quota weight
     */
    static SharePosition of(double borrowedMilli, double weight) {
        return weight > 0
                ? new SharePosition(false, borrowedMilli / weight, null)
                : new SharePosition(true, borrowedMilli, null);
    }

    /** The team's position within its department, placed first by the department's. */
    SharePosition within(SharePosition department) {
        return new SharePosition(noEntitlement, value, department);
    }

    private SharePosition top() {
        return outer == null ? this : outer;
    }

    @Override
    public int compareTo(SharePosition o) {
        int c = OWN.compare(top(), o.top());
        return c != 0 ? c : OWN.compare(this, o);
    }
}
