package io.quotient.enforcer.realgpu;

/** The checks of {@link RealDriverCheck}, each printed as it is made. */
final class CheckLog {

    private int failures;

    void check(String what, boolean passed, String detail) {
        System.out.println((passed ? "PASS " : "FAIL ") + what + (detail.isEmpty() ? "" : " (" + detail + ")"));
        if (!passed) {
            failures++;
        }
    }

    int failures() {
        return failures;
    }
}
