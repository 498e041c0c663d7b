package io.quotient.enforcer.nvml;

/** Turns an nvmlReturn_t into an {@link NvmlException} with NVML's own message (nvmlErrorString). */
@FunctionalInterface
interface NvmlErrorMessages {

    String message(int code);

    default NvmlException exception(int code, String function) {
        return new NvmlException(code, function, message(code));
    }

    default void check(int code, String function) {
        if (code != NvmlException.SUCCESS) {
            throw exception(code, function);
        }
    }
}
