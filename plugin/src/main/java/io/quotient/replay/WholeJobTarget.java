package io.quotient.replay;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a team's waiting jobs can add to what it holds within a bound: the largest sum of the GPU milli of some of its
 * waiting jobs that fits in the gap between what it holds and min(guarantee, demand). The time-to-guarantee target is
 * what the team holds (its running jobs fixed) plus this. Running jobs are fixed because no scheduler stops a team's
 * own job to start another of equal priority: a team holding 73 of 75 guaranteed GPUs whose waiting jobs ask 8 or 16
 * is short of nothing a scheduler can give it, and one guaranteed 19 whose only waiting job asks 32 likewise. A team
 * whose own lower-priority jobs the scheduler may preempt for a higher-priority one (within-team preemption) is still
 * measured with its running jobs fixed: which of them may be preempted changes with their minimum runtimes between
 * events (docs/replay.md states the simplification).
 *
 * <p>A bounded subset sum over the sizes in units of their greatest common divisor. The reachable sums are kept until
 * the waiting jobs change: the gap changes with every job the team starts or stops, the waiting jobs less often, and
 * a smaller gap is answered from the same sums.
 */
final class WholeJobTarget {

    /** The team's waiting jobs, by the GPU milli each asks. */
    private final TreeMap<Long, Integer> waitingByMilli = new TreeMap<>();

    private boolean changed = true;
    /** The sums reachable, in units, up to {@link #size} units; valid unless {@link #changed}. */
    private long[] reachable = new long[0];

    private int size = -1;
    private long unit;

    void add(long milli) {
        if (milli > 0) {
            waitingByMilli.merge(milli, 1, Integer::sum);
            changed = true;
        }
    }

    void remove(long milli) {
        if (milli > 0) {
            waitingByMilli.merge(milli, -1, (a, b) -> a + b == 0 ? null : a + b);
            changed = true;
        }
    }

    /** The largest sum of waiting jobs of the team that is at most {@code gap} milli (0 when the gap is not positive). */
    long within(long gap) {
        if (gap <= 0 || waitingByMilli.isEmpty() || waitingByMilli.firstKey() > gap) {
            return 0;
        }
        if (changed || gap / unitOf() > size) {
            compute(gap);
            changed = false;
        }
        int from = (int) Math.min(size, gap / unit);
        for (int word = from >>> 6; word >= 0; word--) {
            long bits = reachable[word];
            if (word == from >>> 6) {
                bits &= -1L >>> (63 - (from & 63));
            }
            if (bits != 0) {
                return ((long) word * 64 + 63 - Long.numberOfLeadingZeros(bits)) * unit;
            }
        }
        return 0;
    }

    /** The unit the sums are counted in: the current one, or that of the waiting jobs when they changed. */
    private long unitOf() {
        if (changed) {
            unit = 0;
            for (long milli : waitingByMilli.keySet()) {
                unit = gcd(unit, milli);
            }
        }
        return unit;
    }

    private void compute(long gap) {
        unitOf();
        size = (int) (gap / unit);
        reachable = new long[size / 64 + 1];
        reachable[0] = 1;
        for (Map.Entry<Long, Integer> e : waitingByMilli.headMap(gap, true).entrySet()) {
            int step = (int) (e.getKey() / unit);
            // bounded: count copies as pieces of 1, 2, 4, ... copies, each one shift
            int left = Math.min(e.getValue(), size / step);
            for (int piece = 1; left > 0; piece <<= 1) {
                int take = Math.min(piece, left);
                shiftOr(reachable, (long) take * step, size);
                left -= take;
            }
        }
    }

    /** {@code bits |= bits << by}, keeping bits 0..size. */
    private static void shiftOr(long[] bits, long by, int size) {
        if (by > size) {
            return;
        }
        int words = (int) (by >>> 6);
        int shift = (int) (by & 63);
        for (int i = bits.length - 1; i >= words; i--) {
            long from = bits[i - words] << shift;
            if (shift != 0 && i - words - 1 >= 0) {
                from |= bits[i - words - 1] >>> (64 - shift);
            }
            bits[i] |= from;
        }
        int extra = bits.length * 64 - (size + 1);
        if (extra > 0) {
            bits[bits.length - 1] &= -1L >>> extra;
        }
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
