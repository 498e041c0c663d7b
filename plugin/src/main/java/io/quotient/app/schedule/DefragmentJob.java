package io.quotient.app.schedule;

import io.quotient.deploy.DecisionService;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** Consolidates preemptible jobs so whole GPUs and nodes free up, within the configured share (leader only). */
@DisallowConcurrentExecution
public class DefragmentJob extends QuartzJobBean {

    static final String MAX_MOVED_SHARE = "maxMovedShare";

    private final DecisionService queue;

    public DefragmentJob(DecisionService queue) {
        this.queue = queue;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        queue.defragment(context.getMergedJobDataMap().getDouble(MAX_MOVED_SHARE));
    }
}
