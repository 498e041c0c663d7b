package io.quotient.deploy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.DeploymentMetrics;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.deploy.port.TemplateTraits;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The use cases users call (REST, the VDK hook): deploy a job, read jobs, delete a job.
 *
 * <p>A deploy is validated completely before anything is written; then its record is created with its first
 * decision (placed, or pending and why) before anything else is created for it, so that a crash after that point
 * leaves a job the reconciler or the re-queue finishes rather than one forgotten. The decision itself is the
 * {@link DecisionService}'s: serialised, and only on the leader (on a follower the job is recorded undecided and
 * the leader's re-queue places it).
 */
public final class DeploymentService {

    private static final Logger LOG = LoggerFactory.getLogger(DeploymentService.class);

    private final JobRecordStore store;
    private final TeamsSource teams;
    private final WorkloadGateway gateway;
    private final ClusterObserver cluster;
    private final RequestValidator validator;
    private final DecisionService decisions;
    private final DeploymentMetrics metrics;
    private final Clock clock;

    public DeploymentService(
            JobRecordStore store,
            TeamsSource teams,
            WorkloadGateway gateway,
            ClusterObserver cluster,
            RequestValidator validator,
            DecisionService decisions,
            DeploymentMetrics metrics,
            Clock clock) {
        this.store = store;
        this.teams = teams;
        this.gateway = gateway;
        this.cluster = cluster;
        this.validator = validator;
        this.decisions = decisions;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Deploys a job: returns its record, Placed (with node, GPUs and quota state) or Pending (with the reason).
     *
     * @throws TeamNotFoundException when the team is not configured; nothing is recorded
     * @throws io.quotient.core.request.RequestException naming the bad field; nothing is recorded
     * @throws io.quotient.deploy.port.JobAlreadyExistsException when the name is taken; nothing is changed
     */
    public JobRecord deploy(JobSubmission asWritten) {
        Instant start = clock.instant();
        Map<String, Team> configured = requireTeam(asWritten.request().team());
        SubmissionChecks.check(asWritten, gateway.templates());
        JobSubmission submission = withTemplateDefaults(inTeamNamespace(asWritten));
        JobSpec spec = validator.validate(submission.request(), configured);
        List<NodeSpec> nodes = cluster.nodes();
        GpuMemoryFit.check(spec, nodes);
        TeamLimits.check(spec, configured.get(spec.team()), nodes);
        JobRecord decided = decisions.deployNew(
                new JobRecord(submission, spec, JobStatus.pending(PendingReasons.AWAITING_DECISION), start, null));
        LOG.info(
                "job {} of team {} recorded ({} template): {}",
                spec.id().name(),
                spec.team(),
                LogValues.escape(submission.template()),
                decided.phase().wireName());
        metrics.deployed(decided.phase(), Duration.between(start, clock.instant()));
        return decided;
    }

    /**
     * Fills what the request left open from the template, before the record is stored, so that reading the record
     * back later (a restart, the other replica) gives the same answer even if the template changes.
     */
    private JobSubmission withTemplateDefaults(JobSubmission submission) {
        if (submission.request().runtime().preemptible() != null) {
            return submission;
        }
        return Optional.ofNullable(gateway.templates().get(submission.template()))
                .flatMap(TemplateTraits::preemptibleByDefault)
                .map(preemptible -> submission.withRequest(submission.request().withPreemptible(preemptible)))
                .orElse(submission);
    }

    /** A REST deploy goes to the team's primary namespace; one applied with kubectl stays where it was applied. */
    private JobSubmission inTeamNamespace(JobSubmission submission) {
        if (submission.pod().namespace() != null) {
            return submission;
        }
        return submission.inNamespace(
                teams.namespaces().primaryNamespace(submission.request().team()));
    }

    /** @throws TeamNotFoundException for a team not configured; @throws JobNotFoundException when there is no such job */
    public JobRecord get(JobId job) {
        requireTeam(job.team());
        return store.find(job).orElseThrow(() -> new JobNotFoundException(job));
    }

    /** The team's jobs in creation order. @throws TeamNotFoundException for a team not configured */
    public List<JobRecord> list(String team) {
        requireTeam(team);
        return store.list(team);
    }

    /**
     * Deletes a job: its pods are stopped, its record removed, and its capacity goes to waiting jobs.
     *
     * @return the record as it was before deletion
     * @throws TeamNotFoundException for a team not configured (nothing is looked up)
     * @throws JobNotFoundException when there is no such job
     */
    public JobRecord delete(JobId job) {
        requireTeam(job.team());
        return decisions.remove(job).orElseThrow(() -> new JobNotFoundException(job));
    }

    private Map<String, Team> requireTeam(String team) {
        Map<String, Team> configured = teams.teams();
        if (team == null || !configured.containsKey(team)) {
            throw new TeamNotFoundException(String.valueOf(team), configured.keySet());
        }
        return configured;
    }
}
