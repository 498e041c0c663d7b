package io.quotient.adapters.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.OptionalInt;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Serves the admission webhooks ({@link AdmissionController#PREFIX}) only on the admission port, and answers them 404
 * on every other port, as paths no handler serves. The API server calls them with no token, so they are exempt from
 * the access check ({@link AccessFilter}); on the plain API port that exemption let anyone who reached it post a pod
 * review to {@code /admission/workloads/mutate} and have a GpuJob recorded, GPUs held or jobs preempted for any team,
 * without a token or an access review.
 */
public final class AdmissionPortFilter extends OncePerRequestFilter {

    private final OptionalInt admissionPort;
    private final JsonRefusal refusal;

    /** @param admissionPort the HTTPS port of the webhooks ({@code quotient.admission.port}); empty: none anywhere */
    public AdmissionPortFilter(OptionalInt admissionPort, JsonRefusal refusal) {
        this.admissionPort = admissionPort;
        this.refusal = refusal;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith(AdmissionController.PREFIX);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (admissionPort.isPresent() && request.getLocalPort() == admissionPort.getAsInt()) {
            chain.doFilter(request, response);
            return;
        }
        refusal.writeStatus(response, HttpStatus.NOT_FOUND);
    }
}
