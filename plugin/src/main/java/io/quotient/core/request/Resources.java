package io.quotient.core.request;

/**
 * The host resources a request asks for besides GPUs, as written; null means none (zero).
 *
 * @param cpuMilli  the container's CPU request in milli-CPU ({@code cpuMilli})
 * @param memoryMib the container's memory request in MiB ({@code memoryMib})
 */
public record Resources(Long cpuMilli, Long memoryMib) {

    /** Nothing asked besides GPUs. */
    public static final Resources NONE = new Resources(null, null);
}
