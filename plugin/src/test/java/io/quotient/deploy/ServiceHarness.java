package io.quotient.deploy;

import io.quotient.adapters.memory.EmbeddedCluster;
import io.quotient.adapters.memory.InMemoryJobRecordStore;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.Team;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.deploy.port.DeploymentMetrics;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.deploy.port.TemplateTraits;
import io.quotient.deploy.port.WorkloadGateway;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The application layer wired on the embedded cluster, as the service wires it, for tests. */
public final class ServiceHarness {

    public final EmbeddedCluster cluster;
    public final InMemoryJobRecordStore store = new InMemoryJobRecordStore();
    public final MutableClock clock = new MutableClock(TestClocks.START);
    public final RecordingMetrics metrics = new RecordingMetrics();
    public final DecisionService decisions;
    public final DeploymentService deployments;
    public final Reports reports;
    public final PodAdmissions pods;
    public final JobTransitions transitions;
    /** What the idle pass notes on waiting jobs' reasons (the re-queue writes them). */
    public final WaitNotes notes = new WaitNotes();

    /** The embedded default: 4 nodes × 10 GPUs, team-a and team-b guaranteed 20 each. */
    public static List<NodeSpec> fourNodesOfTenGpus() {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            nodes.add(new NodeSpec("gpu-node-" + i, 128_000, 1_048_576, 10, "A100", 81_920));
        }
        return nodes;
    }

    public static Map<String, Team> twoTeamsOfTwenty() {
        return Map.of("team-a", Team.of("team-a", 20), "team-b", Team.of("team-b", 20));
    }

    public ServiceHarness(Scheduler scheduler, RequestValidator validator) {
        this(scheduler, validator, fourNodesOfTenGpus(), twoTeamsOfTwenty(), gateway -> gateway, LeadershipGate.ALWAYS);
    }

    public ServiceHarness(
            Scheduler scheduler,
            RequestValidator validator,
            List<NodeSpec> nodes,
            Map<String, Team> teams,
            Function<WorkloadGateway, WorkloadGateway> gatewayWrapper,
            LeadershipGate leadership) {
        this(scheduler, validator, nodes, teams, gatewayWrapper, leadership, records -> records);
    }

    /** @param storeWrapper wraps the records the service writes through ({@link #store} stays the stored truth) */
    public ServiceHarness(
            Scheduler scheduler,
            RequestValidator validator,
            List<NodeSpec> nodes,
            Map<String, Team> teams,
            Function<WorkloadGateway, WorkloadGateway> gatewayWrapper,
            LeadershipGate leadership,
            Function<JobRecordStore, JobRecordStore> storeWrapper) {
        cluster = new EmbeddedCluster(
                nodes,
                Map.of(
                        "job",
                        new TemplateTraits(null, false, false),
                        "pytorchjob",
                        new TemplateTraits(null, true, false),
                        "notebook",
                        new TemplateTraits(null, false, false)));
        TeamsSource teamsSource = () -> teams;
        WorkloadGateway gateway = gatewayWrapper.apply(cluster);
        JobRecordStore records = storeWrapper.apply(store);
        Duration grace = Duration.ofSeconds(30);
        ReservationKeeper reservations = new ReservationKeeper(records, cluster, gateway);
        transitions = new JobTransitions(records, gateway, reservations, metrics, grace, clock, leadership);
        Decider decider = new Decider(
                records,
                new SnapshotBuilder(cluster, teamsSource, clock),
                scheduler,
                new PlanApplier(records, transitions, leadership, notes),
                new AssumedPlacements(Duration.ofSeconds(5)),
                transitions);
        Reconciler reconciler = new Reconciler(
                records,
                cluster,
                gateway,
                transitions,
                reservations,
                grace,
                Reconciler.DEFAULT_POD_ARRIVAL_GRACE,
                clock);
        decisions = new DecisionService(
                reconciler,
                decider,
                transitions,
                new DecisionLock(),
                leadership,
                new QuotaLabels(records, teamsSource, transitions, 50));
        deployments =
                new DeploymentService(records, teamsSource, gateway, cluster, validator, decisions, metrics, clock);
        pods = new PodAdmissions(deployments, records, cluster);
        reports = new Reports(records, cluster, teamsSource, new ClusterFittedWorkload(TargetWorkload.typical()));
    }

    /** Counts what the use cases report. */
    public static final class RecordingMetrics implements DeploymentMetrics {
        public final List<String> preemptions = new ArrayList<>();
        public final List<String> requeues = new ArrayList<>();
        public int deploys;

        @Override
        public void deployed(JobPhase outcome, Duration latency) {
            deploys++;
        }

        @Override
        public void preempted(JobId job, String cause) {
            preemptions.add(job + ":" + cause);
        }

        @Override
        public void requeued(JobId job) {
            requeues.add(job.toString());
        }
    }
}
