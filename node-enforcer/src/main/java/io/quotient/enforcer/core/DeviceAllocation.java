package io.quotient.enforcer.core;

import java.util.List;

/** Devices the kubelet gave one container (from its pod-resources API), e.g. nvidia.com/gpu → [GPU-...]. */
public record DeviceAllocation(
        String namespace, String pod, String container, String resourceName, List<String> deviceIds) {

    public DeviceAllocation {
        deviceIds = List.copyOf(deviceIds);
    }
}
