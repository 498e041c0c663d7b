package io.quotient.enforcer.core;

/** The GPUs could not be read; the node must not receive new fractions until they can. */
public class GpuUnavailableException extends RuntimeException {
    public GpuUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
