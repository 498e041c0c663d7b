package io.quotient.adapters.rest;

import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The admission webhooks' endpoints, called by the API server (over HTTPS, on the admission port): the validating one
 * for every GpuJob a user creates, and the mutating and validating ones for workloads created outside Quotient
 * (batch Jobs, PyTorchJobs, TrainJobs), which are suspended for adoption when they ask for GPUs, and for GPU pods
 * (Notebooks'), admitted pinned to their job's placement or refused while it waits. They need no token
 * (the API server presents none); on the embedded cluster there is nothing to admit (404).
 */
@Hidden
@RestController
public class AdmissionController {

    /** Answers an {@code admission.k8s.io/v1} AdmissionReview (JSON in, JSON out). */
    @FunctionalInterface
    public interface AdmissionReviewer {
        String review(String admissionReview);
    }

    /** Answers AdmissionReviews of foreign workloads: mutating (suspend and label) and validating (refuse only). */
    public interface WorkloadReviewer {
        String mutate(String admissionReview);

        String validate(String admissionReview);
    }

    /** Every path under it is an admission webhook's, called by the API server without a token. */
    public static final String PREFIX = "/admission/";

    public static final String PATH = PREFIX + "gpujobs";
    public static final String WORKLOADS_MUTATE = PREFIX + "workloads/mutate";
    public static final String WORKLOADS_VALIDATE = PREFIX + "workloads/validate";

    private static final ResponseEntity<String> EMBEDDED =
            ResponseEntity.status(HttpStatus.NOT_FOUND).body("{\"error\":\"no admission on the embedded cluster\"}");

    private final ObjectProvider<AdmissionReviewer> reviewer;
    private final ObjectProvider<WorkloadReviewer> workloads;

    public AdmissionController(ObjectProvider<AdmissionReviewer> reviewer, ObjectProvider<WorkloadReviewer> workloads) {
        this.reviewer = reviewer;
        this.workloads = workloads;
    }

    @PostMapping(
            path = WORKLOADS_MUTATE,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<String> mutateWorkload(@RequestBody String admissionReview) {
        WorkloadReviewer available = workloads.getIfAvailable();
        return available == null ? EMBEDDED : ResponseEntity.ok(available.mutate(admissionReview));
    }

    @PostMapping(
            path = WORKLOADS_VALIDATE,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<String> validateWorkload(@RequestBody String admissionReview) {
        WorkloadReviewer available = workloads.getIfAvailable();
        return available == null ? EMBEDDED : ResponseEntity.ok(available.validate(admissionReview));
    }

    @PostMapping(path = PATH, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<String> review(@RequestBody String admissionReview) {
        AdmissionReviewer available = reviewer.getIfAvailable();
        return available == null ? EMBEDDED : ResponseEntity.ok(available.review(admissionReview));
    }
}
