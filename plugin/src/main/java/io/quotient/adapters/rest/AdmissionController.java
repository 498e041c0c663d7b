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
 * The validating admission webhook's endpoint, called by the API server (over HTTPS, on the admission port) for every
 * GpuJob a user creates. It changes nothing and needs no token (the API server presents none); on the embedded
 * cluster there is nothing to admit (404).
 */
@Hidden
@RestController
public class AdmissionController {

    /** Answers an {@code admission.k8s.io/v1} AdmissionReview (JSON in, JSON out). */
    @FunctionalInterface
    public interface AdmissionReviewer {
        String review(String admissionReview);
    }

    public static final String PATH = "/admission/gpujobs";

    private final ObjectProvider<AdmissionReviewer> reviewer;

    public AdmissionController(ObjectProvider<AdmissionReviewer> reviewer) {
        this.reviewer = reviewer;
    }

    @PostMapping(path = PATH, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<String> review(@RequestBody String admissionReview) {
        AdmissionReviewer available = reviewer.getIfAvailable();
        if (available == null) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body("{\"error\":\"no admission on the embedded cluster\"}");
        }
        return ResponseEntity.ok(available.review(admissionReview));
    }
}
