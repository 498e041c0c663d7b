package io.quotient.deploy.port;

import java.util.List;

/**
 * Workloads created outside Quotient that the admission webhook suspended for adoption (Kubernetes: objects labelled
 * {@code quotient.io/adopted=true} in team namespaces, still suspended), each as the submission of a job governing
 * it: the team of its namespace, its name, the GPUs its pod templates ask for. Read on every pass; cheap enough for
 * the re-queue interval.
 */
public interface AdoptableWorkloads {

    List<JobSubmission> suspendedForAdoption();
}
