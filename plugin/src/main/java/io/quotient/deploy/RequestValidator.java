package io.quotient.deploy;

import io.quotient.core.scheduling.JobRequestInput;
import io.quotient.core.scheduling.JobSpec;
import io.quotient.core.scheduling.Team;
import java.util.Map;

/**
 * Turns a request as written into a validated {@link JobSpec} (the core's JobSpecValidator in the service).
 * Throws {@link io.quotient.core.scheduling.RequestException} naming the field and the reason.
 */
@FunctionalInterface
public interface RequestValidator {

    JobSpec validate(JobRequestInput input, Map<String, Team> teams);
}
