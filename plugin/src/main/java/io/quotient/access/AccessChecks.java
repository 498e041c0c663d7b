package io.quotient.access;

/**
 * How callers are checked: open (the embedded demo: anyone may do anything), or an authenticator and an authorizer.
 */
public record AccessChecks(Authenticator authenticator, Authorizer authorizer) {

    private static final AccessChecks OPEN = new AccessChecks(null, null);

    public AccessChecks {
        if ((authenticator == null) != (authorizer == null)) {
            throw new IllegalArgumentException("give both an authenticator and an authorizer, or neither (open)");
        }
    }

    public static AccessChecks open() {
        return OPEN;
    }

    public boolean isOpen() {
        return authenticator == null;
    }
}
