package io.quotient.enforcer.core;

/**
 * An amount of one GPU's memory as users write it: either absolute bytes, or a fraction that only
 * becomes bytes on a concrete GPU (a 0.25 fraction is 20 GiB on an 80 GiB GPU, 4 GiB on a 16 GiB one).
 */
public sealed interface MemoryAmount {

    /** This amount in bytes on a GPU with {@code totalBytes} of memory. */
    long toBytes(long totalBytes);

    record Bytes(long bytes) implements MemoryAmount {
        public Bytes {
            if (bytes <= 0) {
                throw new IllegalArgumentException("a GPU memory amount must be positive, got " + bytes + " bytes");
            }
        }

        @Override
        public long toBytes(long totalBytes) {
            return bytes;
        }

        @Override
        public String toString() {
            return bytes + " B";
        }
    }

    record Fraction(double fraction) implements MemoryAmount {
        public Fraction {
            if (!(fraction > 0 && fraction <= 1)) {
                throw new IllegalArgumentException("a GPU fraction must be in (0, 1], got " + fraction);
            }
        }

        @Override
        public long toBytes(long totalBytes) {
            return (long) Math.floor(fraction * totalBytes);
        }

        @Override
        public String toString() {
            return fraction + " of the GPU";
        }
    }
}
