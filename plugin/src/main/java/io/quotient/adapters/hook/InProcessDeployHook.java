package io.quotient.adapters.hook;

import io.quotient.core.model.JobId;
import io.quotient.deploy.DeploymentService;
import io.quotient.deploy.JobNotFoundException;
import io.quotient.deploy.port.JobSubmission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link DeployHook} on the service's own use cases: the REST API's semantics without HTTP. */
public final class InProcessDeployHook implements DeployHook {

    private static final Logger LOG = LoggerFactory.getLogger(InProcessDeployHook.class);

    private final DeploymentService deployments;

    public InProcessDeployHook(DeploymentService deployments) {
        this.deployments = deployments;
    }

    @Override
    public HookDecision beforeDeploy(JobSubmission submission) {
        return new HookDecision(deployments.deploy(submission));
    }

    @Override
    public void afterDeploy(JobId job, DeployOutcome outcome) {
        if (outcome.succeeded()) {
            return;
        }
        LOG.info(
                "control service reports the deployment of job {} of team {} failed ({}); withdrawing it",
                job.name(),
                job.team(),
                outcome.reason());
        try {
            deployments.delete(job);
        } catch (JobNotFoundException alreadyGone) {
            LOG.info("job {} of team {} was already withdrawn", job.name(), job.team());
        }
    }

    @Override
    public HookDecision status(JobId job) {
        return new HookDecision(deployments.get(job));
    }

    @Override
    public void undeploy(JobId job) {
        deployments.delete(job);
    }
}
