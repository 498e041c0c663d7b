package io.quotient.deploy;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import io.quotient.core.request.JobRequestInput;
import java.util.Map;

/**
 * Turns a request as written into a validated {@link JobSpec} (the core's JobSpecValidator in the service).
 * Throws {@link io.quotient.core.request.RequestException} naming the field and the reason.
 */
@FunctionalInterface
public interface RequestValidator {

    JobSpec validate(JobRequestInput input, Map<String, Team> teams);
}
