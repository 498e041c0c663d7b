package io.quotient.app.schedule;

import io.quotient.usage.UsageRecorder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** One usage observation (every replica schedules it; it counts only on the leader). */
@DisallowConcurrentExecution
public class UsageJob extends QuartzJobBean {

    private final UsageRecorder recorder;

    public UsageJob(UsageRecorder recorder) {
        this.recorder = recorder;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        recorder.tick();
    }
}
