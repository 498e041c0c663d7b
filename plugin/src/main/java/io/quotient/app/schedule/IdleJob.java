package io.quotient.app.schedule;

import io.quotient.deploy.DecisionService;
import io.quotient.deploy.IdleReclaim;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** The idle pass: warns idle jobs and releases their GPUs for those who wait (leader only; teams' idle policies). */
@DisallowConcurrentExecution
public class IdleJob extends QuartzJobBean {

    private final DecisionService decisions;
    private final IdleReclaim idle;

    public IdleJob(DecisionService decisions, IdleReclaim idle) {
        this.decisions = decisions;
        this.idle = idle;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        decisions.releaseIdle(idle);
    }
}
