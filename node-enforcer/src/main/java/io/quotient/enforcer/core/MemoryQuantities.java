package io.quotient.enforcer.core;

import java.math.BigDecimal;
import java.util.Map;

/** Parses the memory values found in annotations and env of the conventions the enforcer honours. */
public final class MemoryQuantities {

    private static final long MIB = 1L << 20;
    private static final Map<String, Long> SUFFIXES = Map.of(
            "Ki",
            1L << 10,
            "Mi",
            MIB,
            "Gi",
            1L << 30,
            "Ti",
            1L << 40,
            "k",
            1_000L,
            "K",
            1_000L,
            "M",
            1_000_000L,
            "G",
            1_000_000_000L,
            "T",
            1_000_000_000_000L);

    private MemoryQuantities() {}

    /** A fraction of a GPU such as {@code 0.25}. */
    public static MemoryAmount fraction(String key, String value) {
        try {
            return new MemoryAmount.Fraction(Double.parseDouble(value.trim()));
        } catch (IllegalArgumentException e) {
            throw invalid(key, value, "a fraction of one GPU in (0, 1], e.g. 0.25", e);
        }
    }

    /** Whole MiB such as {@code 2000} (Run:ai's and Quotient's gpu-memory annotations). */
    public static MemoryAmount mebibytes(String key, String value) {
        try {
            return new MemoryAmount.Bytes(Math.multiplyExact(Long.parseLong(value.trim()), MIB));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw invalid(key, value, "a whole number of MiB, e.g. 2000", e);
        }
    }

    /** Plain bytes such as {@code 4294967296} (the GPU_MEMORY_REQUEST / GPU_MEMORY_LIMIT env). */
    public static MemoryAmount bytes(String key, String value) {
        try {
            return new MemoryAmount.Bytes(Long.parseLong(value.trim()));
        } catch (IllegalArgumentException e) {
            throw invalid(key, value, "a whole number of bytes", e);
        }
    }

    /**
     * A Kubernetes-style quantity ({@code 4Gi}, {@code 4G}, {@code 4096Mi}); a number without a suffix
     * means {@code unitlessBytes} bytes per unit, and a number in (0, 1) without a suffix, when
     * {@code fractionAllowed}, is a fraction of the GPU (Run:ai's {@code RUNAI_GPU_MEMORY_LIMIT}).
     */
    public static MemoryAmount quantity(String key, String value, long unitlessBytes, boolean fractionAllowed) {
        String text = value.trim();
        try {
            String suffix = text.replaceFirst("^[0-9.]+", "");
            BigDecimal number = new BigDecimal(text.substring(0, text.length() - suffix.length()));
            if (suffix.isEmpty() && fractionAllowed && number.compareTo(BigDecimal.ONE) < 0) {
                return new MemoryAmount.Fraction(number.doubleValue());
            }
            Long unit = suffix.isEmpty() ? Long.valueOf(unitlessBytes) : SUFFIXES.get(suffix);
            if (unit == null) {
                throw new IllegalArgumentException("unknown suffix " + suffix);
            }
            return new MemoryAmount.Bytes(
                    number.multiply(BigDecimal.valueOf(unit)).longValueExact());
        } catch (IllegalArgumentException | ArithmeticException | StringIndexOutOfBoundsException e) {
            throw invalid(
                    key,
                    value,
                    "a quantity such as 4Gi, 4096Mi or 4G"
                            + (fractionAllowed ? ", or a fraction below 1 such as 0.5" : ""),
                    e);
        }
    }

    private static InvalidBudgetException invalid(String key, String value, String expected, Exception cause) {
        return new InvalidBudgetException(
                key + "=\"" + value + "\" is not " + expected + " (" + cause.getMessage() + ")");
    }
}
