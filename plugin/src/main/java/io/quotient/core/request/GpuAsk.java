package io.quotient.core.request;

import java.math.BigDecimal;

/**
 * The GPU part of a request as written: whole GPUs, or a share of one GPU (a fraction or MiB, each with its burst
 * limit) on one or more devices of a node (the models it accepts are its {@link Placement}). Every field may be null
 * (not written); {@link JobSpecValidator} decides which combinations are valid, so the shape itself refuses nothing.
 *
 * @param count          whole GPUs ({@code gpu.count})
 * @param fraction       guaranteed fraction of one GPU, 0 &lt; f &lt; 1 ({@code gpu.fraction}), the decimal as written
 *                       (a binary double cannot tell 0.500000001 from 0.5, and shares are kept in thousandths)
 * @param fractionLimit  burst limit, fraction &lt;= limit &lt;= 1 ({@code gpu.fractionLimit}), as written
 * @param memoryMib      guaranteed MiB of one GPU ({@code gpu.memoryMib}); never together with fraction
 * @param memoryLimitMib burst limit in MiB ({@code gpu.memoryLimitMib})
 * @param devices        the same fraction or MiB on this many GPUs of one node ({@code gpuDevices})
 */
public record GpuAsk(
        Integer count,
        BigDecimal fraction,
        BigDecimal fractionLimit,
        Long memoryMib,
        Long memoryLimitMib,
        Integer devices) {

    /** No GPU asked for: a CPU-only job. */
    public static final GpuAsk NONE = new GpuAsk(null, null, null, null, null, null);

    /** {@code count} whole GPUs. */
    public static GpuAsk whole(int count) {
        return NONE.withCount(count);
    }

    /** A fraction of one GPU with its burst limit (null: the fraction itself). */
    public static GpuAsk fraction(double fraction, Double limit) {
        return NONE.withFraction(decimal(fraction), limit == null ? null : decimal(limit));
    }

    /** A double's shortest decimal form (0.1 is 0.1, not the binary value's 0.1000000000000000055...). */
    public static BigDecimal decimal(double value) {
        return BigDecimal.valueOf(value);
    }

    /** MiB of one GPU with its burst limit (null: the MiB themselves). */
    public static GpuAsk memory(long mib, Long limitMib) {
        return NONE.withMemory(mib, limitMib);
    }

    /** The same ask with {@code gpu.count} set; the rest stays, so a conflicting style is still refused. */
    public GpuAsk withCount(Integer value) {
        return new GpuAsk(value, fraction, fractionLimit, memoryMib, memoryLimitMib, devices);
    }

    /** The same ask with {@code gpu.fraction} and {@code gpu.fractionLimit} set; the rest stays. */
    public GpuAsk withFraction(BigDecimal value, BigDecimal limit) {
        return new GpuAsk(count, value, limit, memoryMib, memoryLimitMib, devices);
    }

    /** The same ask with {@code gpu.memoryMib} and {@code gpu.memoryLimitMib} set; the rest stays. */
    public GpuAsk withMemory(Long mib, Long limitMib) {
        return new GpuAsk(count, fraction, fractionLimit, mib, limitMib, devices);
    }

    /** The same ask on {@code devices} GPUs of one node ({@code gpuDevices}). */
    public GpuAsk onDevices(Integer devices) {
        return new GpuAsk(count, fraction, fractionLimit, memoryMib, memoryLimitMib, devices);
    }
}
