package io.quotient.adapters.hook;

import io.quotient.core.model.JobId;
import io.quotient.deploy.port.JobSubmission;

/**
 * What a VDK-style control service embeds to deploy GPU jobs through Quotient in-process, with the semantics of
 * the REST API ({@code POST /api/v1/teams/{team}/jobs}): the same validation, the same errors, the same
 * placement, preemption and re-queue. Obtain it from the Spring context ({@code InProcessDeployHook} is a bean
 * of the {@code serve} application) or build it around a {@link io.quotient.deploy.DeploymentService}.
 *
 * <p>Example, in the control service's deployment step:
 * <pre>{@code
 * JobSubmission job = HookRequest.job("team-a", "nightly-ingest").wholeGpus(2)
 *         .image("registry.example/ingest:1.4").command("python", "ingest.py").preemptible(true)
 *         .label("vdk.io/data-job", "nightly-ingest").build();
 * HookDecision decision;
 * try {
 *     decision = hook.beforeDeploy(job);                 // records, validates and places (or queues) the job
 * } catch (RequestException e) {                         // 400: e.field() says what to fix; nothing was created
 *     return DeploymentResult.rejected(e.field(), e.getMessage());
 * }
 * if (decision.pending()) {
 *     log.info("GPU job queued: {}", decision.reason());  // 202: Quotient deploys it when capacity frees
 * }
 * boolean ok = controlService.recordDeployment(decision); // the control service's own bookkeeping
 * hook.afterDeploy(decision.job(), ok ? DeployOutcome.deployed() : DeployOutcome.failed("bookkeeping failed"));
 * }</pre>
 */
public interface DeployHook {

    /**
     * Before the control service considers the job deployed: validates, records and places it, exactly as
     * {@code POST /api/v1/teams/{team}/jobs}.
     *
     * @throws io.quotient.core.request.RequestException naming the bad field (REST 400); nothing is created
     * @throws io.quotient.deploy.TeamNotFoundException for a team not configured (REST 404)
     * @throws io.quotient.deploy.port.JobAlreadyExistsException when the name is taken (REST 409)
     */
    HookDecision beforeDeploy(JobSubmission submission);

    /**
     * After the control service finished its own deployment step. A failed outcome withdraws the job (as
     * {@code DELETE}), so that a deployment the control service gave up on holds no GPUs.
     */
    void afterDeploy(JobId job, DeployOutcome outcome);

    /** The job's current decision (REST {@code GET}). @throws io.quotient.deploy.JobNotFoundException */
    HookDecision status(JobId job);

    /** Withdraws the job: stops it and frees its GPUs (REST {@code DELETE}). @throws io.quotient.deploy.JobNotFoundException */
    void undeploy(JobId job);
}
