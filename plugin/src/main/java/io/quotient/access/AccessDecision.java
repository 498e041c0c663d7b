package io.quotient.access;

/** The authorizer's answer; {@code reason} is the authorizer's own explanation, when it gives one (may be empty). */
public record AccessDecision(boolean allowed, String reason) {

    public static final AccessDecision ALLOWED = new AccessDecision(true, "");
}
