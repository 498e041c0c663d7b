package io.quotient.replay;

/**
 * How a team's guarantee is split by GPU model, as the time-to-guarantee target needs it: a split guarantee is a
 * guarantee per group, so the team's gap is the sum of its groups' gaps (what it runs beyond one group's guarantee, or
 * on models outside every group, is borrowed and fills no other group's), and a waiting job can bring the team toward
 * it only within the gap of a group it may run in (docs/replay.md, {@code timeToGuaranteeSeconds}). {@link #NONE}: a
 * guarantee of any model.
 */
interface GuaranteeGroups {

    GuaranteeGroups NONE = new GuaranteeGroups() {
        @Override
        public long gap(long wholeGap) {
            return wholeGap;
        }

        @Override
        public long reachable() {
            return Long.MAX_VALUE;
        }
    };

    /**
     * The GPU milli the team is short of its guarantee, given {@code wholeGap}: min(guarantee, demand) less what it
     * holds.
     */
    long gap(long wholeGap);

    /** At most what the team's waiting jobs can add toward its guarantee. */
    long reachable();
}
