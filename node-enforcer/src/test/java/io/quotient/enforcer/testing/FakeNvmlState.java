package io.quotient.enforcer.testing;

import java.util.ArrayList;
import java.util.List;

/** Builds the fake NVML's state file (the directives are documented in fake_nvml.c). */
public final class FakeNvmlState {

    public static final long GIB = 1L << 30;
    public static final long MIB = 1L << 20;

    private final List<String> lines = new ArrayList<>();

    public static FakeNvmlState create() {
        return new FakeNvmlState().line("driver 550.54.15");
    }

    public static String uuid(int index) {
        return String.format("GPU-00000000-0000-0000-0000-%012d", index);
    }

    public FakeNvmlState device(int index, long totalBytes, String model) {
        return line("device " + index + " " + totalBytes + " " + uuid(index) + " " + model);
    }

    public FakeNvmlState base(int device, long bytes) {
        return line("base " + device + " " + bytes);
    }

    public FakeNvmlState utilization(int device, int gpuPercent, int memoryPercent) {
        return line("util " + device + " " + gpuPercent + " " + memoryPercent);
    }

    /** A per-process utilization sample of a live process on a whole GPU. */
    public FakeNvmlState processUtilization(int device, long pid, int smPercent, int memoryPercent) {
        return line("putil " + device + " " + pid + " " + smPercent + " " + memoryPercent);
    }

    public FakeNvmlState process(int device, long pid, long usedBytes) {
        return line("proc " + device + " " + pid + " " + usedBytes);
    }

    public FakeNvmlState migMode(int device, boolean on) {
        return line("migmode " + device + " " + (on ? 1 : 0));
    }

    public FakeNvmlState mig(
            int device, int migIndex, long totalBytes, int gpuInstance, int computeInstance, String uuid) {
        return line("mig " + device + " " + migIndex + " " + totalBytes + " " + gpuInstance + " " + computeInstance
                + " " + uuid);
    }

    public FakeNvmlState migProcess(int device, int migIndex, long pid, long usedBytes) {
        return line("migproc " + device + " " + migIndex + " " + pid + " " + usedBytes);
    }

    public FakeNvmlState fail(String symbol, int code) {
        return line("fail " + symbol + " " + code);
    }

    public FakeNvmlState understate(int device) {
        return line("understate " + device);
    }

    public FakeNvmlState copy() {
        FakeNvmlState copy = new FakeNvmlState();
        copy.lines.addAll(lines);
        return copy;
    }

    String render() {
        return String.join("\n", lines) + "\n";
    }

    private FakeNvmlState line(String line) {
        lines.add(line);
        return this;
    }
}
