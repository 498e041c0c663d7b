package io.quotient.enforcer.k8s;

import com.google.protobuf.CodedInputStream;
import io.quotient.enforcer.core.DeviceAllocation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the kubelet's {@code v1.ListPodResourcesResponse} by hand (field numbers from
 * k8s.io/kubelet/pkg/apis/podresources/v1/api.proto), keeping only what the enforcer needs and skipping
 * every other field, so newer kubelets with more fields still decode:
 * <pre>
 * ListPodResourcesResponse { repeated PodResources pod_resources = 1; }
 * PodResources             { string name = 1; string namespace = 2; repeated ContainerResources containers = 3; }
 * ContainerResources       { string name = 1; repeated ContainerDevices devices = 2; ... }
 * ContainerDevices         { string resource_name = 1; repeated string device_ids = 2; ... }
 * </pre>
 */
final class PodResourcesCodec {

    private PodResourcesCodec() {}

    static List<DeviceAllocation> decodeList(CodedInputStream in) throws IOException {
        List<DeviceAllocation> allocations = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (tag == field(1)) {
                readPod(nested(in), allocations);
            } else {
                in.skipField(tag);
            }
        }
        return allocations;
    }

    private static void readPod(CodedInputStream in, List<DeviceAllocation> allocations) throws IOException {
        String name = "";
        String namespace = "";
        List<CodedInputStream> containers = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (tag == field(1)) {
                name = in.readStringRequireUtf8();
            } else if (tag == field(2)) {
                namespace = in.readStringRequireUtf8();
            } else if (tag == field(3)) {
                containers.add(nested(in));
            } else {
                in.skipField(tag);
            }
        }
        for (CodedInputStream container : containers) {
            readContainer(container, namespace, name, allocations);
        }
    }

    private static void readContainer(
            CodedInputStream in, String namespace, String pod, List<DeviceAllocation> allocations) throws IOException {
        String name = "";
        List<CodedInputStream> devices = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (tag == field(1)) {
                name = in.readStringRequireUtf8();
            } else if (tag == field(2)) {
                devices.add(nested(in));
            } else {
                in.skipField(tag);
            }
        }
        for (CodedInputStream device : devices) {
            String resource = "";
            List<String> ids = new ArrayList<>();
            for (int tag = device.readTag(); tag != 0; tag = device.readTag()) {
                if (tag == field(1)) {
                    resource = device.readStringRequireUtf8();
                } else if (tag == field(2)) {
                    ids.add(device.readStringRequireUtf8());
                } else {
                    device.skipField(tag);
                }
            }
            allocations.add(new DeviceAllocation(namespace, pod, name, resource, ids));
        }
    }

    /** The tag of a length-delimited field (wire type 2). */
    private static int field(int number) {
        return number << 3 | 2;
    }

    private static CodedInputStream nested(CodedInputStream in) throws IOException {
        return CodedInputStream.newInstance(in.readByteArray());
    }
}
