package io.quotient.deploy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.WorkloadRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods that ask for GPUs, governed at their admission (a Notebook's StatefulSet pod, a bare GPU pod): the pod cannot
 * be suspended, so it is admitted only once its job is placed, pinned there, and refused until then. The first create
 * of a pod records its job (named as the pod) and decides it at once on the leader, like a REST deploy; a later create
 * (its controller retrying) is answered from the record: placed → admit, waiting → wait with the record's reason. The
 * GPU UUID of a share must be known before admission (the pod's env names it), so a share placed a moment ago waits
 * for its reservation first. Reads only the record and the cluster's caches after the first decision, so any replica
 * answers a retry the same way; on a follower a new job is recorded undecided and the leader's re-queue decides it.
 */
public final class PodAdmissions {

    private static final Logger LOG = LoggerFactory.getLogger(PodAdmissions.class);

    private final DeploymentService deployments;
    private final JobRecordStore store;
    private final ClusterObserver cluster;

    public PodAdmissions(DeploymentService deployments, JobRecordStore store, ClusterObserver cluster) {
        this.deployments = deployments;
        this.store = store;
        this.cluster = cluster;
    }

    /** The verdict on creating, in {@code namespace}, the pod whose GPU request (named as the pod) is {@code request}. */
    public PodVerdict admit(String namespace, JobRequestInput request) {
        return admit(namespace, request, false);
    }

    /**
     * The verdict on creating the pod, as {@link #admit(String, JobRequestInput)}; a dry run ({@code kubectl apply
     * --dry-run=server}) changes nothing: it is answered from an existing record only.
     */
    public PodVerdict admit(String namespace, JobRequestInput request, boolean dryRun) {
        JobId job = new JobId(request.team(), request.name());
        WorkloadRef pod = WorkloadRef.pod(request.name());
        Optional<JobRecord> existing = store.find(job);
        if (existing.isPresent() && !governs(existing.get(), pod, namespace)) {
            JobSubmission other = existing.get().submission();
            return new PodVerdict.Refuse("job " + job.name() + " of team " + job.team() + " exists already and governs "
                    + (other.adopted()
                            ? other.workload() + " in namespace " + other.pod().namespace()
                            : "a job deployed through Quotient's API")
                    + "; rename the pod or delete that job");
        }
        if (dryRun) {
            return existing.filter(r -> !r.phase().finished())
                    .map(this::verdict)
                    .orElse(new PodVerdict.Wait("this is"
                            + " a dry run, and its job is recorded and decided only when the pod is really created"));
        }
        if (existing.isPresent() && existing.get().phase().finished()) {
            // an earlier pod of this name ran to its end: this create is a new run of it
            deployments.delete(job);
            existing = Optional.empty();
        }
        try {
            JobRecord record = existing.isPresent()
                    ? existing.get()
                    : deployments.deploy(JobSubmission.governing(request, namespace, pod));
            return verdict(record);
        } catch (JobAlreadyExistsException e) {
            // a concurrent create of the same pod (another replica, a retry) recorded it first
            return store.find(job).map(this::verdict).orElse(new PodVerdict.Wait("its job is being recorded"));
        } catch (RequestException | TeamNotFoundException e) {
            return new PodVerdict.Refuse(e.getMessage());
        }
    }

    /** A team's pods of one name in two of its namespaces would be one job: the second is refused. */
    private static boolean governs(JobRecord record, WorkloadRef pod, String namespace) {
        return pod.equals(record.submission().workload())
                && namespace.equals(record.submission().pod().namespace());
    }

    private PodVerdict verdict(JobRecord record) {
        if (!record.phase().holdsCapacity()) {
            String reason = record.status().reason();
            return new PodVerdict.Wait(
                    reason == null || reason.isBlank() ? record.phase().wireName() : reason);
        }
        String node = record.status().node();
        List<GpuBinding> gpus = withKnownUuids(node, record.status().gpus());
        if (!Placements.uuidsKnown(gpus)) {
            LOG.info(
                    "job {} of team {} is placed on node {}; its pod waits for the GPU UUID of its reservation",
                    record.id().name(),
                    record.id().team(),
                    node);
            return new PodVerdict.Wait("it is placed on node " + node + " and waits a moment for its GPU's"
                    + " reservation to report the GPU UUID");
        }
        long gpuMemoryMib = cluster.nodes().stream()
                .filter(n -> n.name().equals(node))
                .findFirst()
                .map(NodeSpec::gpuMemoryMib)
                .orElse(0L);
        return new PodVerdict.Admit(record, gpus, gpuMemoryMib);
    }

    /** The record's GPUs with the UUIDs the reservations report now (the record learns them on the next pass). */
    private List<GpuBinding> withKnownUuids(String node, List<GpuBinding> gpus) {
        if (Placements.uuidsKnown(gpus)) {
            return gpus;
        }
        Map<GpuSlot, String> reserved = cluster.reservations();
        return gpus.stream()
                .map(g -> {
                    String uuid = g.fractional() ? reserved.get(new GpuSlot(node, g.index())) : null;
                    return uuid == null || uuid.isEmpty() ? g : g.withUuid(uuid);
                })
                .toList();
    }
}
