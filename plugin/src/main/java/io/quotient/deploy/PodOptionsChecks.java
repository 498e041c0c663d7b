package io.quotient.deploy;

import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.PodOptions;
import io.quotient.deploy.port.VolumeRequest;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks the image reference and the pod options of a submission (service account, volumes, image pull secrets,
 * annotations) so that a bad one is refused with its field before anything is recorded, instead of a workload the
 * API server refuses later.
 */
final class PodOptionsChecks {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    /** The grammar of github.com/distribution/reference: [domain[:port]/]path[:tag][@digest]. */
    private static final Pattern IMAGE = Pattern.compile(
            "(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*"
                    + "(?::[0-9]+)?/)?"
                    + "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*"
                    + "(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?"
                    + "(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?");

    private static final int MAX_IMAGE_LENGTH = 4096;
    /** The digests container runtimes verify (the algorithms registered in github.com/opencontainers/go-digest). */
    private static final Pattern DIGEST =
            Pattern.compile("sha256:[0-9a-f]{64}|sha384:[0-9a-f]{96}|sha512:[0-9a-f]{128}");
    /** The longest name (registry and repository) an image reference may have (distribution/reference). */
    private static final int MAX_IMAGE_NAME_LENGTH = 255;

    private PodOptionsChecks() {}

    static void checkImage(String image) {
        if (image == null) {
            return;
        }
        if (image.isBlank()) {
            throw new RequestException("image", "must not be blank; leave it out to use the template's image");
        }
        if (image.length() > MAX_IMAGE_LENGTH || !IMAGE.matcher(image).matches()) {
            throw new RequestException(
                    "image",
                    "'" + printable(image) + "' is not a valid image reference"
                            + " ([registry[:port]/]name[:tag][@digest], lower-case name, no spaces or line breaks)");
        }
        int at = image.indexOf('@');
        if (at >= 0 && !DIGEST.matcher(image.substring(at + 1)).matches()) {
            // the grammar takes any algorithm and any length; the runtime pulls only digests it can verify
            throw new RequestException(
                    "image",
                    "'" + printable(image) + "' has a digest no runtime can verify: write it as sha256: and 64"
                            + " lower-case hex digits (or sha384: 96, sha512: 128)");
        }
        String name = at >= 0 ? image.substring(0, at) : image;
        int tag = name.lastIndexOf(':');
        if (tag > name.lastIndexOf('/')) {
            name = name.substring(0, tag);
        }
        if (name.length() > MAX_IMAGE_NAME_LENGTH) {
            throw new RequestException(
                    "image",
                    "has a name of " + name.length() + " characters (registry and repository); at most "
                            + MAX_IMAGE_NAME_LENGTH + " are allowed in an image reference");
        }
    }

    static void check(PodOptions pod) {
        if (pod.serviceAccountName() != null
                && !DNS_SUBDOMAIN.matcher(pod.serviceAccountName()).matches()) {
            throw new RequestException(
                    "serviceAccountName",
                    "'" + printable(pod.serviceAccountName()) + "' is not a"
                            + " valid service account name (lower-case letters, digits, '-' and '.')");
        }
        List<String> secrets = pod.imagePullSecrets();
        for (int i = 0; i < secrets.size(); i++) {
            objectName("imagePullSecrets[" + i + "]", secrets.get(i));
        }
        Set<String> names = new HashSet<>();
        Set<String> paths = new HashSet<>();
        for (int i = 0; i < pod.volumes().size(); i++) {
            VolumeRequest volume = pod.volumes().get(i);
            String field = "volumes[" + i + "]";
            if (volume == null) {
                throw new RequestException(field, "must not be null");
            }
            if (volume.name() == null) {
                // said as missing: it was quoted as the volume name 'null', which is a valid DNS label
                throw new RequestException(
                        field + ".name", "is required: the volume's name in the pod, a DNS label such as data");
            }
            if (!DNS_LABEL.matcher(volume.name()).matches()) {
                throw new RequestException(
                        field + ".name",
                        "'" + printable(volume.name()) + "' is not a valid volume"
                                + " name (a DNS label: lower-case letters, digits and '-', at most 63 characters)");
            }
            if (!names.add(volume.name())) {
                throw new RequestException(field + ".name", "'" + volume.name() + "' is used by two volumes");
            }
            source(field, volume);
            String path = volume.mountPath();
            if (path == null) {
                throw new RequestException(
                        field + ".mountPath", "is required: the absolute path the volume is mounted at, such as /data");
            }
            if (!path.startsWith("/")
                    || path.contains(":")
                    || path.chars().anyMatch(Character::isISOControl)
                    || List.of(path.split("/")).contains("..")) {
                // '..' climbs out of where the path seems to point: /data/../../etc mounts over /etc
                throw new RequestException(
                        field + ".mountPath",
                        "'" + printable(path) + "' must be an absolute path without ':', '..' segments or control"
                                + " characters");
            }
            // compared as the runtime resolves them: /data, /data/ and //data/. are one place, mounted twice
            String place = mountPlace(path);
            if (place.equals("/")) {
                throw new RequestException(
                        field + ".mountPath",
                        "'" + printable(path) + "' is the container's root, which no volume may be mounted over; name a"
                                + " directory such as /data");
            }
            if (!paths.add(place)) {
                throw new RequestException(
                        field + ".mountPath",
                        "'" + printable(path) + "' is the mount path of two volumes (" + place + ")");
            }
        }
    }

    /** An absolute path without '..' as the runtime resolves it: empty and '.' segments and a trailing '/' dropped. */
    static String mountPlace(String path) {
        StringBuilder place = new StringBuilder();
        for (String segment : path.split("/")) {
            if (!segment.isEmpty() && !segment.equals(".")) {
                place.append('/').append(segment);
            }
        }
        return place.isEmpty() ? "/" : place.toString();
    }

    /** The pods' annotations (the submission's metadata): no key of Quotient's or of the GPU request, each with a value. */
    static void checkAnnotations(Map<String, String> annotations) {
        annotations.forEach((key, value) -> {
            ReservedNames.checkMetadataKey("annotations", key);
            MetadataKeys.checkKey("annotations", key);
            if (value == null) {
                throw new RequestException(
                        "annotations." + key, "must have a value (a string, may be empty), not" + " null");
            }
            if (value.indexOf('\u0000') >= 0) {
                // line breaks are common in annotation values (JSON, scripts); a NUL is not text, and C-string
                // readers of the pod (runtimes, log shippers) end the value there
                throw new RequestException(
                        "annotations." + key,
                        "contains a NUL character, which is not text; the readers of a pod's annotations end the"
                                + " value there");
            }
        });
        MetadataKeys.checkAnnotationsSize(annotations);
    }

    private static void source(String field, VolumeRequest volume) {
        int given = (volume.persistentVolumeClaim() == null ? 0 : 1)
                + (volume.secret() == null ? 0 : 1)
                + (volume.configMap() == null ? 0 : 1);
        if (given != 1) {
            throw new RequestException(
                    field,
                    "needs exactly one of persistentVolumeClaim, secret or configMap (the"
                            + " name of an object in the team's namespace); " + given + " given");
        }
        if (volume.persistentVolumeClaim() != null) {
            objectName(field + ".persistentVolumeClaim", volume.persistentVolumeClaim());
        } else if (volume.secret() != null) {
            objectName(field + ".secret", volume.secret());
        } else {
            objectName(field + ".configMap", volume.configMap());
        }
    }

    private static void objectName(String field, String name) {
        if (name == null) {
            throw new RequestException(field, "must be a name (a string), not null");
        }
        if (!DNS_SUBDOMAIN.matcher(name).matches()) {
            throw new RequestException(
                    field,
                    "'" + printable(name) + "' is not a valid object name (lower-case"
                            + " letters, digits, '-' and '.')");
        }
    }

    /** The value with line breaks and tabs made visible, so the answer shows what was wrong with it. */
    private static String printable(String value) {
        return value == null
                ? "null"
                : value.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }
}
