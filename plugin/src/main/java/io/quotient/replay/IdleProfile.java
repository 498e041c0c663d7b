package io.quotient.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How busy a job keeps its GPUs over its running time (the general format's {@code idle_profile}, docs/replay.md):
 * periods of a utilisation, one after the other from the start, busy after the last. Positions are milliseconds of the
 * job's running time so far (every segment it ran, work lost to preemptions included), not of the clock: a job
 * waiting in the queue does not move on in it, and one preempted and placed again takes it up where it left it. As a
 * job runs at least its team's {@code after} between two idle releases, it always reaches the end of its profile, and
 * busy from there it is released no more: a replay ends even when idle jobs are released and re-queued again and
 * again. {@link #BUSY}, no periods, is a job busy all the time (a trace without profiles).
 */
public record IdleProfile(List<Period> periods) {

    /** One stretch of the profile: this long, at this utilisation (0..1, as the enforcer reports it). */
    public record Period(long ms, double utilisation) {}

    /** Busy all the time. */
    public static final IdleProfile BUSY = new IdleProfile(List.of());

    /** At most so many periods in one profile (a cell, not a time series). */
    static final int MAX_PERIODS = 10_000;

    private static final Pattern PERIOD =
            Pattern.compile("(busy|idle|(\\d{1,3}(?:\\.\\d+)?)%):(\\d{1,9}(?:\\.\\d+)?)([smh])");

    public IdleProfile {
        periods = List.copyOf(periods);
        for (Period p : periods) {
            if (p.ms() <= 0 || !(p.utilisation() >= 0 && p.utilisation() <= 1)) {
                throw new IllegalArgumentException(
                        "a profile period needs a positive length and a utilisation in" + " 0..1, was " + p);
            }
        }
    }

    /**
     * Reads {@code busy:45m|idle:2h|30%:10m}: periods separated by {@code |}, each a state ({@code busy} = 100 %,
     * {@code idle} = 0 %, or a utilisation {@code N%}) and a length ({@code 90s}, {@code 45m}, {@code 1.5h}). Empty:
     * {@link #BUSY}.
     *
     * @throws IllegalArgumentException saying which period is wrong and what is expected
     */
    public static IdleProfile parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            return BUSY;
        }
        String[] parts = t.split("\\|", -1);
        if (parts.length > MAX_PERIODS) {
            throw new IllegalArgumentException("at most " + MAX_PERIODS + " periods, found " + parts.length);
        }
        List<Period> periods = new ArrayList<>(parts.length);
        for (String part : parts) {
            Matcher m = PERIOD.matcher(part.trim().toLowerCase(Locale.ROOT));
            if (!m.matches()) {
                throw new IllegalArgumentException("period '" + part.trim() + "' is not STATE:LENGTH; STATE is busy,"
                        + " idle or a utilisation such as 30%, LENGTH a number with s, m or h (busy:45m|idle:2h)");
            }
            double utilisation = m.group(2) != null
                    ? Double.parseDouble(m.group(2)) / 100
                    : m.group(1).equals("busy") ? 1 : 0;
            if (utilisation > 1) {
                throw new IllegalArgumentException("period '" + part.trim() + "': utilisation above 100 %");
            }
            double unit = switch (m.group(4)) {
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            long ms = Math.round(Double.parseDouble(m.group(3)) * unit);
            if (ms <= 0) {
                throw new IllegalArgumentException("period '" + part.trim() + "' has no length");
            }
            periods.add(new Period(ms, utilisation));
        }
        return new IdleProfile(periods);
    }

    /** Whether the trace gave this job a profile (a job without one is busy all the time). */
    public boolean given() {
        return !periods.isEmpty();
    }

    /** The mean utilisation over running time {@code fromMs}..{@code toMs} (1 for {@link #BUSY}). */
    public double meanUtilisation(long fromMs, long toMs) {
        if (toMs <= fromMs) {
            return 1;
        }
        double[] sum = {0};
        walk(fromMs, toMs, (ms, u) -> sum[0] += ms * u);
        return sum[0] / (toMs - fromMs);
    }

    /** How much of running time {@code fromMs}..{@code toMs} is at or under {@code threshold}. */
    public long msAtOrUnder(long fromMs, long toMs, double threshold) {
        long[] sum = {0};
        walk(fromMs, toMs, (ms, u) -> sum[0] += u <= threshold ? ms : 0);
        return sum[0];
    }

    /**
     * Where the stretch at or under {@code threshold} that holds position {@code atMs} ends, looking no further than
     * {@code limitMs}; {@code atMs} itself when the job is above the threshold there.
     */
    public long idleStretchEnd(long atMs, double threshold, long limitMs) {
        long end = 0;
        for (Period p : periods) {
            long start = end;
            end += p.ms();
            if (end <= atMs) {
                continue;
            }
            if (p.utilisation() > threshold) {
                return Math.max(atMs, Math.min(start, limitMs));
            }
            if (end >= limitMs) {
                return Math.max(atMs, limitMs);
            }
        }
        return Math.max(atMs, Math.min(end, limitMs)); // busy after the last period
    }

    private interface Stretch {
        void add(long ms, double utilisation);
    }

    /** Calls {@code stretch} for each piece of {@code fromMs}..{@code toMs} at one utilisation, in order. */
    private void walk(long fromMs, long toMs, Stretch stretch) {
        long end = 0;
        for (Period p : periods) {
            long start = end;
            end += p.ms();
            long from = Math.max(start, fromMs);
            long to = Math.min(end, toMs);
            if (to > from) {
                stretch.add(to - from, p.utilisation());
            }
            if (end >= toMs) {
                return;
            }
        }
        long from = Math.max(end, fromMs);
        if (toMs > from) {
            stretch.add(toMs - from, 1); // busy after the last period
        }
    }
}
