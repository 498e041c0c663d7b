package io.quotient.deploy;

import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.LeadershipGate;

/**
 * Asks leadership again right before each decision write, so that a replica that froze after its plan passed the
 * leadership check (SIGSTOP, a long GC) writes nothing more once it wakes (see {@link JobTransitions}).
 */
final class LeadershipFence {

    private final LeadershipGate leadership;

    LeadershipFence(LeadershipGate leadership) {
        this.leadership = leadership;
    }

    /** Whether this replica still leads (asked right before acting on the cluster from its own view). */
    boolean leads() {
        return leadership.isLeader();
    }

    /** Refuses a decision write once this replica cannot show it still leads. */
    void check(JobRecord record, String write) {
        if (!leadership.isLeader()) {
            throw new LeadershipLostException(record.id(), write);
        }
    }
}
