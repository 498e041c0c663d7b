package io.quotient.app.schedule;

import io.quotient.deploy.DecisionService;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** Returns borrowed GPUs to teams with waiting in-quota work (leader only). */
@DisallowConcurrentExecution
public class ReclaimJob extends QuartzJobBean {

    private final DecisionService queue;

    public ReclaimJob(DecisionService queue) {
        this.queue = queue;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        queue.reclaim();
    }
}
