package io.quotient.core.scheduling;

/**
 * How eagerly capacity is taken back.
 *
 * @param fairShareMinGainMilli a team reclaims toward its fair share only when it is at least this far below it
 *                              (hysteresis: small differences do not make jobs change hands back and forth)
 * @param maxMovesPerDecision   at most this many running jobs are moved to make room for one job (each move
 *                              restarts a job); 0 disables moves
 */
public record ReclaimSettings(long fairShareMinGainMilli, int maxMovesPerDecision) {

    public static final ReclaimSettings DEFAULTS = new ReclaimSettings(1000, 4);

    public ReclaimSettings {
        if (fairShareMinGainMilli < 0) {
            throw new IllegalArgumentException(
                    "fair-share minimum gain must not be negative, was " + fairShareMinGainMilli / 1000.0 + " GPUs");
        }
        if (maxMovesPerDecision < 0) {
            throw new IllegalArgumentException("moves per decision must not be negative, was " + maxMovesPerDecision);
        }
    }
}
