package io.quotient.core.model;

/**
 * What a job asks of GPUs. Fractions are held in milli-GPU (0.25 = 250) so that accounting is exact.
 * Limits above the request are loaned capacity: not reserved by placement, taken back by the enforcer.
 */
public sealed interface GpuRequest {

    /** GPUs this request occupies on the node (each holding {@link #milliPerGpu()} or MiB). */
    int devices();

    /** No GPU at all (CPU-only job). */
    record None() implements GpuRequest {
        public int devices() {
            return 0;
        }
    }

    /** {@code count} whole GPUs (the {@code nvidia.com/gpu} resource). */
    record WholeGpus(int count) implements GpuRequest {
        /** One request per common count, so that like jobs can share it and comparisons end at the reference. */
        private static final WholeGpus[] COMMON = new WholeGpus[17];

        static {
            for (int c = 0; c < COMMON.length; c++) {
                COMMON[c] = new WholeGpus(c);
            }
        }

        /** The request for {@code count} whole GPUs, the same instance for every count up to 16. */
        public static WholeGpus of(int count) {
            return count >= 0 && count < COMMON.length ? COMMON[count] : new WholeGpus(count);
        }

        public int devices() {
            return count;
        }
    }

    /** A guaranteed fraction of each of {@code devices} GPUs of one node, burstable to {@code limitMilli}. */
    record Fraction(int milli, int limitMilli, int devices) implements GpuRequest {}

    /** Guaranteed MiB of each of {@code devices} GPUs of one node, burstable to {@code limitMib}. */
    record Memory(long mib, long limitMib, int devices) implements GpuRequest {}
}
