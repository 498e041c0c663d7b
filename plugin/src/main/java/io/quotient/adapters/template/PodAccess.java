package io.quotient.adapters.template;

import io.quotient.deploy.port.PodOptions;
import io.quotient.deploy.port.VolumeRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sets what a job may use of its namespace on one pod template: the service account, image pull secrets, and each
 * requested volume (a PVC, secret or config map by name) with its mount in the main container. Everything is set as
 * objects; a template's own volume or mount of the same name is replaced.
 */
final class PodAccess {

    private PodAccess() {}

    static void apply(Map<String, Object> podSpec, Map<String, Object> mainContainer, PodOptions pod) {
        if (pod.serviceAccountName() != null) {
            podSpec.put("serviceAccountName", pod.serviceAccountName());
        }
        if (!pod.imagePullSecrets().isEmpty()) {
            List<Object> secrets = Trees.childList(podSpec, "imagePullSecrets");
            for (String name : pod.imagePullSecrets()) {
                replaceByName(secrets, name, new LinkedHashMap<>(Map.of("name", name)));
            }
        }
        for (VolumeRequest volume : pod.volumes()) {
            replaceByName(Trees.childList(podSpec, "volumes"), volume.name(), volume(volume));
            Map<String, Object> mount = new LinkedHashMap<>();
            mount.put("name", volume.name());
            mount.put("mountPath", volume.mountPath());
            if (Boolean.TRUE.equals(volume.readOnly())) {
                mount.put("readOnly", true);
            }
            replaceByName(Trees.childList(mainContainer, "volumeMounts"), volume.name(), mount);
        }
    }

    private static Map<String, Object> volume(VolumeRequest volume) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("name", volume.name());
        boolean readOnly = Boolean.TRUE.equals(volume.readOnly());
        if (volume.persistentVolumeClaim() != null) {
            Map<String, Object> claim = new LinkedHashMap<>();
            claim.put("claimName", volume.persistentVolumeClaim());
            if (readOnly) {
                claim.put("readOnly", true);
            }
            result.put("persistentVolumeClaim", claim);
        } else if (volume.secret() != null) {
            result.put("secret", new LinkedHashMap<>(Map.of("secretName", volume.secret())));
        } else {
            result.put("configMap", new LinkedHashMap<>(Map.of("name", volume.configMap())));
        }
        return result;
    }

    private static void replaceByName(List<Object> list, String name, Map<String, Object> entry) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof Map<?, ?> existing && name.equals(existing.get("name"))) {
                list.set(i, entry);
                return;
            }
        }
        list.add(entry);
    }
}
