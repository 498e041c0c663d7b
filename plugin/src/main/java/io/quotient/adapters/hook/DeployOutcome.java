package io.quotient.adapters.hook;

/** How the control service's own deployment step ended. */
public record DeployOutcome(boolean succeeded, String reason) {

    public static DeployOutcome deployed() {
        return new DeployOutcome(true, null);
    }

    public static DeployOutcome failed(String reason) {
        return new DeployOutcome(false, reason);
    }
}
