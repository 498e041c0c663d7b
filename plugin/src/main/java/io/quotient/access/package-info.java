/**
 * Who may call the service, and what they may do: the ports {@link io.quotient.access.Authenticator} (a bearer token
 * to a {@link io.quotient.access.Caller}) and {@link io.quotient.access.Authorizer} (a caller and an
 * {@link io.quotient.access.AccessRequest} to an {@link io.quotient.access.AccessDecision}), decisions cached briefly
 * ({@link io.quotient.access.CachedAccessChecks}), and the mapping of job calls to the questions asked
 * ({@link io.quotient.access.JobAccess}). On Kubernetes the API server answers (TokenReview, SubjectAccessReview),
 * so that the cluster's own users, groups and RBAC bindings govern the REST API as they govern kubectl.
 */
package io.quotient.access;
