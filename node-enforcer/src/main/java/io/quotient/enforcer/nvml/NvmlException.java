package io.quotient.enforcer.nvml;

import java.util.Map;

/** An NVML call returned an error: carries the nvmlReturn_t code, its name, and NVML's own message. */
public class NvmlException extends RuntimeException {

    public static final int SUCCESS = 0;
    public static final int UNINITIALIZED = 1;
    public static final int INVALID_ARGUMENT = 2;
    public static final int NOT_SUPPORTED = 3;
    public static final int NOT_FOUND = 6;
    public static final int INSUFFICIENT_SIZE = 7;
    public static final int DRIVER_NOT_LOADED = 9;
    public static final int LIBRARY_NOT_FOUND = 12;
    public static final int FUNCTION_NOT_FOUND = 13;
    public static final int GPU_IS_LOST = 15;
    public static final int RESET_REQUIRED = 16;
    public static final int LIB_RM_VERSION_MISMATCH = 18;
    public static final int ARGUMENT_VERSION_MISMATCH = 25;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(0, "SUCCESS"),
            Map.entry(1, "UNINITIALIZED"),
            Map.entry(2, "INVALID_ARGUMENT"),
            Map.entry(3, "NOT_SUPPORTED"),
            Map.entry(4, "NO_PERMISSION"),
            Map.entry(5, "ALREADY_INITIALIZED"),
            Map.entry(6, "NOT_FOUND"),
            Map.entry(7, "INSUFFICIENT_SIZE"),
            Map.entry(8, "INSUFFICIENT_POWER"),
            Map.entry(9, "DRIVER_NOT_LOADED"),
            Map.entry(10, "TIMEOUT"),
            Map.entry(11, "IRQ_ISSUE"),
            Map.entry(12, "LIBRARY_NOT_FOUND"),
            Map.entry(13, "FUNCTION_NOT_FOUND"),
            Map.entry(14, "CORRUPTED_INFOROM"),
            Map.entry(15, "GPU_IS_LOST"),
            Map.entry(16, "RESET_REQUIRED"),
            Map.entry(17, "OPERATING_SYSTEM"),
            Map.entry(18, "LIB_RM_VERSION_MISMATCH"),
            Map.entry(19, "IN_USE"),
            Map.entry(20, "MEMORY"),
            Map.entry(21, "NO_DATA"),
            Map.entry(22, "VGPU_ECC_NOT_SUPPORTED"),
            Map.entry(23, "INSUFFICIENT_RESOURCES"),
            Map.entry(24, "FREQ_NOT_SUPPORTED"),
            Map.entry(25, "ARGUMENT_VERSION_MISMATCH"),
            Map.entry(26, "DEPRECATED"),
            Map.entry(27, "NOT_READY"),
            Map.entry(28, "GPU_NOT_FOUND"),
            Map.entry(29, "INVALID_STATE"),
            Map.entry(30, "RESET_TYPE_NOT_SUPPORTED"),
            Map.entry(999, "UNKNOWN"));

    private final int code;
    private final String function;

    public NvmlException(int code, String function, String nvmlMessage) {
        super(function + " failed: NVML_ERROR_" + name(code) + " (" + code + "): " + nvmlMessage);
        this.code = code;
        this.function = function;
    }

    public static String name(int code) {
        return NAMES.getOrDefault(code, "CODE_" + code);
    }

    public int code() {
        return code;
    }

    public String function() {
        return function;
    }

    /** The GPU or driver is gone: the node cannot host fractions until an operator fixes it. */
    public boolean isDeviceOrDriverLost() {
        return code == GPU_IS_LOST
                || code == DRIVER_NOT_LOADED
                || code == RESET_REQUIRED
                || code == LIB_RM_VERSION_MISMATCH
                || code == LIBRARY_NOT_FOUND
                || code == UNINITIALIZED;
    }
}
