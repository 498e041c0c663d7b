package io.quotient.app.schedule;

import io.quotient.deploy.DecisionService;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** Reconciles with the cluster and re-deploys waiting jobs that now fit (leader only). */
@DisallowConcurrentExecution
public class RequeueJob extends QuartzJobBean {

    private final DecisionService queue;

    public RequeueJob(DecisionService queue) {
        this.queue = queue;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        queue.requeuePending();
    }
}
