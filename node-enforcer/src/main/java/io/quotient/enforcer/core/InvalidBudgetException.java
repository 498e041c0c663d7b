package io.quotient.enforcer.core;

/**
 * A container's GPU memory request or limit cannot be understood. The enforcer then leaves the
 * container alone (it never kills on a guess) and reports the message so the owner can fix the pod.
 */
public class InvalidBudgetException extends RuntimeException {
    public InvalidBudgetException(String message) {
        super(message);
    }
}
