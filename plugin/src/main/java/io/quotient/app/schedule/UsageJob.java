package io.quotient.app.schedule;

import io.quotient.adapters.metrics.UsageMeters;
import io.quotient.usage.UsageRecorder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.scheduling.quartz.QuartzJobBean;

/**
 * One usage observation (every replica schedules it; it counts only on the leader), then the usage counters
 * refreshed from the records (on every replica: a replica that does not lead publishes the stored totals).
 */
@DisallowConcurrentExecution
public class UsageJob extends QuartzJobBean {

    private final UsageRecorder recorder;
    private final UsageMeters meters;

    public UsageJob(UsageRecorder recorder, UsageMeters meters) {
        this.recorder = recorder;
        this.meters = meters;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        recorder.tick();
        meters.refresh();
    }
}
