package io.quotient.access;

/** Whether a caller may do something (Kubernetes: a SubjectAccessReview, so RBAC bindings decide). */
public interface Authorizer {

    /** @throws AccessCheckUnavailableException when the check itself could not be made */
    AccessDecision authorize(Caller caller, AccessRequest request);
}
