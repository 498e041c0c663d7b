package io.quotient.app.schedule;

import io.quotient.deploy.Adoption;
import io.quotient.deploy.DecisionService;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.quartz.QuartzJobBean;

/**
 * Adopts workloads created outside Quotient (in cluster mode), reconciles with the cluster and re-deploys waiting jobs
 * that now fit (leader only).
 */
@DisallowConcurrentExecution
public class RequeueJob extends QuartzJobBean {

    private final DecisionService queue;
    private final ObjectProvider<Adoption> adoption;

    public RequeueJob(DecisionService queue, ObjectProvider<Adoption> adoption) {
        this.queue = queue;
        this.adoption = adoption;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        adoption.ifAvailable(Adoption::adoptNew);
        queue.requeuePending();
    }
}
