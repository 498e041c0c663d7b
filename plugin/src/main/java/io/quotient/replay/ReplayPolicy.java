package io.quotient.replay;

import io.quotient.core.model.Team;
import io.quotient.core.scheduling.FairShareSettings;
import io.quotient.core.scheduling.Scheduler;
import java.util.Map;

/**
 * A scheduling policy the replay runs: the service's own or a baseline standing for a peer's behaviour. Each is the
 * same scheduling core in another configuration (placement policy, reclaim settings, teams as the core sees them,
 * schedules); a baseline whose peer needs another rule states it as one of the hooks below, never as a copy of the
 * decision code.
 */
public interface ReplayPolicy {

    String name();

    /** One line: the peer behaviour it stands for, and that it is an approximation. */
    String approximates();

    /** A fresh scheduler for one run (the service's learns from the jobs it sees). */
    Scheduler newScheduler();

    /** The teams as the scheduler sees them, from the configured ones; the metrics keep the configured ones. */
    default Map<String, Team> teams(Map<String, Team> configured, long capacityMilli) {
        return configured;
    }

    /** The team a job is scheduled in; its own unless the policy pools teams. */
    default String schedulingTeam(String team) {
        return team;
    }

    /** Whether a running job may be taken back at all (false: idle GPUs are lent and never reclaimed). */
    default boolean reclaims() {
        return true;
    }

    /**
     * Whether the teams' idle policies release idle jobs (the service's idle pass). The baselines never do: none of
     * the peers they stand for sees GPU utilisation.
     */
    default boolean releasesIdle() {
        return false;
    }

    default PassSchedule passes() {
        return PassSchedule.SERVICE;
    }

    /** How fair shares remember past borrowing (the service's {@code quotient.scheduling.fair-share}). */
    default FairShareSettings fairShare() {
        return FairShareSettings.INSTANTANEOUS;
    }

    /** This policy with fair shares remembering past borrowing so; a policy whose peer has no such rule ignores it. */
    default ReplayPolicy withFairShare(FairShareSettings settings) {
        return this;
    }
}
