package io.quotient.replay;

import java.util.Map;
import java.util.TreeMap;

/**
 * The most a team can hold within a bound in whole jobs of its own: the largest sum of the GPU milli of some of its
 * jobs (running or waiting) that does not exceed the bound. The time-to-guarantee target is this within min(guarantee,
 * demand): a team guaranteed 19 GPUs whose only waiting job asks 32 cannot be brought to 19 by any scheduler, so it is
 * not below its target for it. A bounded subset sum, over the sizes in units of their greatest common divisor,
 * remembered until the team's jobs or the bound change.
 */
final class WholeJobTarget {

    /** The team's jobs not finished, by the GPU milli each holds or asks. */
    private final TreeMap<Long, Integer> jobsByMilli = new TreeMap<>();

    private boolean changed = true;
    private long lastBound = -1;
    private long lastTarget;

    void add(long milli) {
        if (milli > 0) {
            jobsByMilli.merge(milli, 1, Integer::sum);
            changed = true;
        }
    }

    void remove(long milli) {
        if (milli > 0) {
            jobsByMilli.merge(milli, -1, (a, b) -> a + b == 0 ? null : a + b);
            changed = true;
        }
    }

    /** The largest sum of whole jobs of the team that is at most {@code bound} milli. */
    long within(long bound) {
        if (changed || bound != lastBound) {
            lastTarget = compute(bound);
            lastBound = bound;
            changed = false;
        }
        return lastTarget;
    }

    private long compute(long bound) {
        if (bound <= 0 || jobsByMilli.isEmpty()) {
            return 0;
        }
        long unit = 0;
        for (long milli : jobsByMilli.keySet()) {
            unit = gcd(unit, milli);
        }
        int size = (int) (bound / unit);
        long[] reachable = new long[size / 64 + 1];
        reachable[0] = 1;
        for (Map.Entry<Long, Integer> e : jobsByMilli.headMap(bound, true).entrySet()) {
            int step = (int) (e.getKey() / unit);
            // bounded: count copies as pieces of 1, 2, 4, ... copies, each one shift
            int left = Math.min(e.getValue(), size / step);
            for (int piece = 1; left > 0; piece <<= 1) {
                int take = Math.min(piece, left);
                shiftOr(reachable, (long) take * step, size);
                left -= take;
            }
        }
        for (int i = size; i >= 0; i--) {
            if ((reachable[i >>> 6] & (1L << (i & 63))) != 0) {
                return i * unit;
            }
        }
        return 0;
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
