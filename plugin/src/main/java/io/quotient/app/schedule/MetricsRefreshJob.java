package io.quotient.app.schedule;

import io.quotient.adapters.metrics.QuotientGauges;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** Refreshes the per-team and cluster gauges (every replica, leader or not). */
@DisallowConcurrentExecution
public class MetricsRefreshJob extends QuartzJobBean {

    private final QuotientGauges gauges;

    public MetricsRefreshJob(QuotientGauges gauges) {
        this.gauges = gauges;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        gauges.refresh();
    }
}
