package io.quotient.adapters.rest;

import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.DeploymentService;
import io.quotient.deploy.Reports;
import io.quotient.deploy.port.JobRecord;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

/** Deploying, reading and deleting a team's GPU jobs. */
@RestController
@RequestMapping(path = "/api/v1/teams/{team}/jobs", produces = MediaType.APPLICATION_JSON_VALUE)
public class JobsController {

    private final DeploymentService deployments;
    private final Reports reports;

    public JobsController(DeploymentService deployments, Reports reports) {
        this.deployments = deployments;
        this.reports = reports;
    }

    @Operation(
            summary = "Deploy a GPU job",
            responses = {
                @ApiResponse(responseCode = "201", description = "placed: node, GPUs and quota state in the body"),
                @ApiResponse(
                        responseCode = "202",
                        description = "recorded but waiting (phase Pending, reason says why)"),
                @ApiResponse(
                        responseCode = "400",
                        description = "invalid request; field and reason in the body",
                        content =
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = ErrorBody.class))),
                @ApiResponse(
                        responseCode = "404",
                        description = "unknown team",
                        content =
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = ErrorBody.class))),
                @ApiResponse(
                        responseCode = "409",
                        description = "a job of that name exists in the team",
                        content =
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = ErrorBody.class)))
            })
    // application/json only: Spring would read any +json type (application/merge-patch+json) as a whole new job
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<JobView> deploy(@PathVariable String team, @RequestBody JobRequestBody body) {
        JobRecord record = deployments.deploy(body.toSubmission(team));
        HttpStatus status = record.phase().holdsCapacity() ? HttpStatus.CREATED : HttpStatus.ACCEPTED;
        // relative (RFC 9110 allows it): built from the request's Host, a Host no URI can hold (1.2.3.4.5) failed
        // after the job was recorded, and any other was echoed to the caller as where the job lives
        return ResponseEntity.status(status)
                .location(UriComponentsBuilder.fromPath("/api/v1/teams/{team}/jobs/{name}")
                        .buildAndExpand(team, record.id().name())
                        .encode()
                        .toUri())
                .body(JobView.of(record));
    }

    @Operation(
            summary = "The team's jobs, oldest first",
            responses = {
                @ApiResponse(responseCode = "200", description = "the jobs"),
                @ApiResponse(
                        responseCode = "404",
                        description = "unknown team",
                        content =
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = ErrorBody.class)))
            })
    @GetMapping
    public List<JobView> list(@PathVariable String team) {
        Map<JobId, QuotaState> quotaStates = reports.currentQuotaStates();
        return deployments.list(team).stream()
                .map(r -> JobView.of(r, quotaStates))
                .toList();
    }

    @Operation(
            summary = "One job: phase, placement, quota state and why it is pending",
            responses = {
                @ApiResponse(responseCode = "200", description = "the job"),
                @ApiResponse(
                        responseCode = "404",
                        description = "unknown team or job",
                        content =
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = ErrorBody.class)))
            })
    @GetMapping("/{name}")
    public JobView get(@PathVariable String team, @PathVariable String name) {
        return JobView.of(deployments.get(new JobId(team, name)), reports.currentQuotaStates());
    }

    @Operation(
            summary = "Delete a job: its pods are stopped and its capacity goes to waiting jobs",
            responses = {
                @ApiResponse(responseCode = "200", description = "the job as it was before deletion"),
                @ApiResponse(
                        responseCode = "404",
                        description = "unknown team or job",
                        content =
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = ErrorBody.class)))
            })
    @DeleteMapping("/{name}")
    public JobView delete(@PathVariable String team, @PathVariable String name) {
        return JobView.of(deployments.delete(new JobId(team, name)));
    }
}
