package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.AdoptableWorkloads;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.LeadershipGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adopts workloads created outside Quotient (leader only; observe → plan → apply): a workload suspended for adoption
 * without a record gets one, through the same deploy as a REST job (validated, quota-checked, placed or queued with
 * a reason), that governs it. From then on it is a job like any other; the gateway patches the workload instead of
 * rendering one.
 */
public final class Adoption {

    private static final Logger LOG = LoggerFactory.getLogger(Adoption.class);

    private final AdoptableWorkloads workloads;
    private final JobRecordStore store;
    private final DeploymentService deployments;
    private final LeadershipGate leadership;

    public Adoption(
            AdoptableWorkloads workloads,
            JobRecordStore store,
            DeploymentService deployments,
            LeadershipGate leadership) {
        this.workloads = workloads;
        this.store = store;
        this.deployments = deployments;
        this.leadership = leadership;
    }

    /** One pass: records (and places or queues) every adoptable workload without a record; returns how many. */
    public int adoptNew() {
        if (!leadership.isLeader()) {
            return 0;
        }
        int adopted = 0;
        for (JobSubmission submission : plan(workloads.suspendedForAdoption(), store::find)) {
            JobId job = submission.id();
            try {
                JobRecord record = deployments.deploy(submission);
                LOG.info(
                        "adopted {} of team {} as job {}: {}",
                        submission.workload(),
                        job.team(),
                        job.name(),
                        record.phase().wireName());
                adopted++;
            } catch (JobAlreadyExistsException e) {
                LOG.debug("job {} of team {} was recorded meanwhile", job.name(), job.team());
            } catch (RequestException | TeamNotFoundException e) {
                LOG.warn(
                        "cannot adopt {} of team {} as job {}: {}; it stays suspended",
                        submission.workload(),
                        job.team(),
                        job.name(),
                        e.getMessage());
            }
        }
        return adopted;
    }

    /**
     * The workloads to record: those without a record. A record of the same name that governs something else (a REST
     * job, an earlier workload of that name) leaves the workload suspended, with a warning.
     */
    static List<JobSubmission> plan(List<JobSubmission> seen, Function<JobId, Optional<JobRecord>> records) {
        List<JobSubmission> toRecord = new ArrayList<>();
        for (JobSubmission submission : seen) {
            Optional<JobRecord> existing = records.apply(submission.id());
            if (existing.isEmpty()) {
                toRecord.add(submission);
            } else if (!submission.workload().equals(existing.get().submission().workload())) {
                LOG.warn(
                        "{} of team {} stays suspended: job {} exists already and governs {}; rename the workload",
                        submission.workload(),
                        submission.id().team(),
                        submission.id().name(),
                        existing.get().submission().adopted()
                                ? existing.get().submission().workload()
                                : "a REST job");
            }
        }
        return toRecord;
    }
}
