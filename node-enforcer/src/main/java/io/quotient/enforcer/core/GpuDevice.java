package io.quotient.enforcer.core;

/**
 * One unit of GPU memory the enforcer accounts for: a whole GPU, or a MIG instance of one (then
 * {@code parentUuid} names the physical GPU and {@code index} is the physical GPU's index).
 * {@code utilizationPercent} is -1 where the driver does not report it (MIG instances).
 */
public record GpuDevice(
        int index,
        String uuid,
        String model,
        long totalBytes,
        long usedBytes,
        long freeBytes,
        int utilizationPercent,
        String parentUuid) {

    public static GpuDevice whole(
            int index, String uuid, String model, long totalBytes, long usedBytes, long freeBytes) {
        return new GpuDevice(index, uuid, model, totalBytes, usedBytes, freeBytes, -1, "");
    }

    public boolean isMigInstance() {
        return !parentUuid.isEmpty();
    }
}
