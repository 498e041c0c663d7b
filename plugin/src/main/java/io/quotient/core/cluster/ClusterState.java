package io.quotient.core.cluster;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The free capacity of every node, mutable and array-backed so that placement policies can score
 * thousands of nodes per decision. Planners work on a {@link #copy()} and apply tentative
 * allocations to it (apply, check, keep or release), so the caller's state changes only on commit.
 *
 * <p>Each GPU's free capacity is counted exactly in {@link GpuUnits} (thousandths of a MiB), so that fractions and
 * MiB requests add up without rounding; {@link #gpuFree} gives it in milli-GPU for scores and reports, and
 * {@link #holds} says whether a demand fits one GPU.
 *
 * <p>Only guaranteed shares are tracked here: capacity lent above a request is not a placement
 * constraint (it is taken back by the node enforcer when the owner needs it).
 */
public final class ClusterState {

    private final List<NodeSpec> nodes;
    private final long[] freeCpu;
    private final long[] freeMemory;
    /** Per node and GPU, the free units ({@link GpuUnits}). */
    private final long[][] gpuFree;

    private final long[] version;
    private final AllocationKinds kinds;
    private long totalGpuMilli;
    /** Allocations and releases so far: what is derived from the free capacity stays valid until it changes. */
    private long changes;

    public ClusterState(List<NodeSpec> nodes) {
        this.nodes = List.copyOf(nodes);
        int n = this.nodes.size();
        freeCpu = new long[n];
        freeMemory = new long[n];
        gpuFree = new long[n][];
        version = new long[n];
        for (int i = 0; i < n; i++) {
            NodeSpec spec = this.nodes.get(i);
            freeCpu[i] = spec.cpuMilli();
            freeMemory[i] = spec.memoryMib();
            gpuFree[i] = new long[spec.gpuCount()];
            Arrays.fill(gpuFree[i], GpuUnits.capacity(spec));
            totalGpuMilli += (long) spec.gpuCount() * ResourceDemand.WHOLE;
        }
        kinds = new AllocationKinds(n);
    }

    private ClusterState(ClusterState other) {
        nodes = other.nodes;
        freeCpu = other.freeCpu.clone();
        freeMemory = other.freeMemory.clone();
        gpuFree = new long[other.gpuFree.length][];
        for (int i = 0; i < gpuFree.length; i++) {
            gpuFree[i] = other.gpuFree[i].clone();
        }
        version = other.version.clone();
        kinds = other.kinds.copy();
        totalGpuMilli = other.totalGpuMilli;
        changes = other.changes;
    }

    public ClusterState copy() {
        return new ClusterState(this);
    }

    public int nodeCount() {
        return nodes.size();
    }

    public List<NodeSpec> nodes() {
        return nodes;
    }

    public NodeSpec node(int index) {
        return nodes.get(index);
    }

    public int indexOf(String nodeName) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).name().equals(nodeName)) {
                return i;
            }
        }
        return -1;
    }

    public long freeCpu(int node) {
        return freeCpu[node];
    }

    public long freeMemory(int node) {
        return freeMemory[node];
    }

    public int gpuCount(int node) {
        return gpuFree[node].length;
    }

    /** Free guaranteed share of one GPU, 0..1000, rounded down (exact while the GPU holds no MiB request). */
    public int gpuFree(int node, int gpu) {
        return GpuUnits.milli(nodes.get(node), gpuFree[node][gpu]);
    }

    /** Free capacity of one GPU, exactly, in {@link GpuUnits}. */
    public long gpuFreeUnits(int node, int gpu) {
        return gpuFree[node][gpu];
    }

    /** Whether one GPU of the node has the demand's share free, exactly (MiB and fractions counted alike). */
    public boolean holds(int node, int gpu, ResourceDemand demand) {
        return gpuFree[node][gpu] >= demand.unitsOn(nodes.get(node));
    }

    /** Copies the free share of each GPU of the node into {@code dest} (at least {@link #gpuCount} long). */
    public void copyGpuFree(int node, int[] dest) {
        for (int g = 0; g < gpuFree[node].length; g++) {
            dest[g] = gpuFree(node, g);
        }
    }

    /** Copies the free units of each GPU of the node into {@code dest} (at least {@link #gpuCount} long). */
    public void copyGpuFreeUnits(int node, long[] dest) {
        System.arraycopy(gpuFree[node], 0, dest, 0, gpuFree[node].length);
    }

    /**
     * The kinds of GPU allocations the node holds, as {@link AllocationKinds#kindOf} codes with their
     * counts (CPU-only allocations are not counted). Read-only view.
     */
    public Map<Integer, Integer> allocationKinds(int node) {
        return kinds.of(node);
    }

    /** How many GPU allocations of the kind ({@link AllocationKinds#kindOf}) the node holds. */
    public int allocationsOfKind(int node, int kind) {
        return kinds.count(node, kind);
    }

    /** How many kinds of GPU allocation the node holds at least one of. */
    public int allocationKindCount(int node) {
        return kinds.kinds(node);
    }

    /** Sum of free GPU milli on the node. */
    public long gpuFreeOnNode(int node) {
        long sum = 0;
        for (int g = 0; g < gpuFree[node].length; g++) {
            sum += gpuFree(node, g);
        }
        return sum;
    }

    /** Sum of the free units ({@link GpuUnits}) of the node's GPUs, exactly. */
    public long gpuFreeUnitsOnNode(int node) {
        long sum = 0;
        for (long g : gpuFree[node]) {
            sum += g;
        }
        return sum;
    }

    /** Changes whenever the node's free capacity changes; lets policies cache per-node scores. */
    public long version(int node) {
        return version[node];
    }

    /** Changes whenever any node's free capacity does (the sum of the nodes' versions). */
    public long changes() {
        return changes;
    }

    public long totalGpuMilli() {
        return totalGpuMilli;
    }

    public long allocatedGpuMilli() {
        long free = 0;
        for (int i = 0; i < gpuFree.length; i++) {
            free += gpuFreeOnNode(i);
        }
        return totalGpuMilli - free;
    }

    /** Whether CPU, memory, GPU model and enough GPUs with the demanded share are free on the node. */
    public boolean fits(int node, ResourceDemand demand) {
        if (freeCpu[node] < demand.cpuMilli() || freeMemory[node] < demand.memoryMib()) {
            return false;
        }
        if (!demand.needsGpu()) {
            return true;
        }
        NodeSpec spec = nodes.get(node);
        if (!demand.allowsModel(spec.gpuModel()) || spec.gpuCount() < demand.gpuCount()) {
            return false;
        }
        long units = demand.unitsOn(spec);
        int enough = 0;
        for (long free : gpuFree[node]) {
            if (free >= units && ++enough >= demand.gpuCount()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the allocation, exactly these GPUs with its CPU and memory, fits what is free now. */
    public boolean canAllocate(Allocation a) {
        int node = a.nodeIndex();
        if (freeCpu[node] < a.cpuMilli() || freeMemory[node] < a.memoryMib()) {
            return false;
        }
        long units = a.unitsPerGpu(nodes.get(node));
        for (int g : a.gpuIndices()) {
            if (gpuFree[node][g] < units) {
                return false;
            }
        }
        return true;
    }

    /** Takes the allocation's capacity; fails loudly (and changes nothing) if it does not fit. */
    public void allocate(Allocation a) {
        int node = a.nodeIndex();
        if (freeCpu[node] < a.cpuMilli() || freeMemory[node] < a.memoryMib()) {
            throw new IllegalStateException(
                    "allocation does not fit CPU/memory of " + nodes.get(node).name() + ": " + a);
        }
        long units = a.unitsPerGpu(nodes.get(node));
        for (int g : a.gpuIndices()) {
            if (gpuFree[node][g] < units) {
                throw new IllegalStateException("GPU " + g + " of "
                        + nodes.get(node).name() + " has only " + gpuFree(node, g) + " milli free: " + a);
            }
        }
        freeCpu[node] -= a.cpuMilli();
        freeMemory[node] -= a.memoryMib();
        for (int g : a.gpuIndices()) {
            gpuFree[node][g] -= units;
        }
        kinds.add(node, a);
        version[node]++;
        changes++;
    }

    /** Returns the allocation's capacity (the inverse of {@link #allocate}). */
    public void release(Allocation a) {
        int node = a.nodeIndex();
        NodeSpec spec = nodes.get(node);
        long units = a.unitsPerGpu(spec);
        for (int g : a.gpuIndices()) {
            if (gpuFree[node][g] + units > GpuUnits.capacity(spec)) {
                throw new IllegalStateException("releasing more than GPU " + g + " of " + spec.name() + " holds: " + a);
            }
        }
        freeCpu[node] = Math.min(spec.cpuMilli(), freeCpu[node] + a.cpuMilli());
        freeMemory[node] = Math.min(spec.memoryMib(), freeMemory[node] + a.memoryMib());
        for (int g : a.gpuIndices()) {
            gpuFree[node][g] += units;
        }
        kinds.remove(node, a);
        version[node]++;
        changes++;
    }
}
