package io.quotient.app;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The request bodies of issue 31 and of the later hostile probes, each with the field its refusal must name and a part
 * of the reason: {@link HostileRequestsApiTest} sends every one to the whole service.
 */
final class HostileBodies {

    private HostileBodies() {}

    static Stream<Arguments> all() {
        String longKey = "k".repeat(200);
        String bigValue = "v".repeat(60_000);
        return Stream.of(
                // a lax reader (5)
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1,\"count\":8}}", "gpu.count", "given twice"),
                Arguments.of("{\"name\":\"a\",\"name\":\"b\",\"gpu\":{\"count\":1}}", "name", "given twice"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}} {\"name\":\"b\"}", null, "goes on after"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}} x", null, "not valid JSON"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1.5}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1.0}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":\"\"}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"labels\":{\"k\":\"1\",\"k\":\"2\"}}", "labels.k", "given twice"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"secret\":\"s\",\"mountPath\":\"/v\","
                                + "\"readOnly\":\"yes\"}]}",
                        "volumes[0].readOnly",
                        "must be true or false"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":\"1\"}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":true}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":[1]}}", "gpu.count", "must be a whole number"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"fraction\":\"0.5\"}}", "gpu.fraction", "must be a number"),
                // the reader took these strings for numbers before its coercion rules were asked
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"fraction\":\"NaN\"}}", "gpu.fraction", "must be a number"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5,\"fractionLimit\":\"Infinity\"}}",
                        "gpu.fractionLimit",
                        "must be a number"),
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"x\":\"a\\u0000b\"}}", "annotations.x", "NUL"),
                Arguments.of("{\"name\":\"a\",\"preemptible\":\"true\"}", "preemptible", "must be true or false"),
                Arguments.of("{\"name\":\"a\",\"preemptible\":1}", "preemptible", "must be true or false"),
                Arguments.of("{\"name\":1}", "name", "must be a string"),
                Arguments.of("{\"name\":\"a\",\"command\":[1]}", "command[0]", "must be a string"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":99999999999}}",
                        "gpu.count",
                        "from -2147483648 to 2147483647"),
                Arguments.of("{\"name\":\"a\",\"cpuMilli\":" + "9".repeat(30) + "}", "cpuMilli", "whole number"),
                // a number past the reader's limit of 1000 digits, named at its leaf: it was the object around it
                // (gpu for gpu.count, volumes[0] for volumes[0].readOnly) or, at the top, the body (null)
                Arguments.of("{\"name\":\"a\",\"cpuMilli\":" + "9".repeat(1500) + "}", "cpuMilli", "1000 digits"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":" + "1".repeat(1001) + "}}", "gpu.count", "1000 digits"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"memoryMib\":1,\"memoryLimitMib\":" + "1".repeat(1001) + "}}",
                        "gpu.memoryLimitMib",
                        "1000 digits"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0." + "1".repeat(1001) + "}}",
                        "gpu.fraction",
                        "1000 digits"),
                Arguments.of("{\"name\":\"a\",\"gpuDevices\":" + "1".repeat(1001) + "}", "gpuDevices", "1000 digits"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"readOnly\":" + "1".repeat(1001) + "}]}",
                        "volumes[0].readOnly",
                        "1000 digits"),
                Arguments.of("{\"name\":\"a\",\"args\":[\"x\"," + "1".repeat(1001) + "]}", "args[1]", "1000 digits"),
                // GPU memory beyond the embedded cluster's 80 GB GPUs: a limit no GPU reaches (it was placed), a
                // request on a model no GPU of which holds it (it waited for ever)
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"memoryMib\":1000,\"memoryLimitMib\":100000}}",
                        "gpu.memoryLimitMib",
                        "the largest GPU of the cluster has 81920 MiB"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"memoryMib\":90000},\"gpuModels\":[\"A100-SXM4-80GB\"]}",
                        "gpu.memoryMib",
                        "the models it may run on (A100-SXM4-80GB) has 81920 MiB"),
                Arguments.of("{\"name\":\"a\",\"gpu\":[]}", "gpu", "must be an object"),
                Arguments.of("[]", null, "must be a JSON object"),
                Arguments.of("{\"name\":\"a\",", null, "ends in the middle"),
                Arguments.of("", null, "missing"),
                // a raw NUL byte ended the body for the reader: the second object was dropped in silence
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}}\u0000{\"name\":\"b\"}", null, "NUL byte"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1}}\u0000", null, "NUL byte (at byte 30)"),
                // nulls (6)
                Arguments.of("{\"name\":\"a\",\"command\":[\"sleep\",\"1\",null]}", "command[2]", "not null"),
                Arguments.of("{\"name\":\"a\",\"args\":[null]}", "args[0]", "not null"),
                Arguments.of("{\"name\":\"a\",\"env\":{\"A\":null}}", "env.A", "not null"),
                Arguments.of("{\"name\":\"a\",\"labels\":{\"foo\":null}}", "labels.foo", "not null"),
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"x\":null}}", "annotations.x", "not null"),
                Arguments.of("{\"name\":\"a\",\"imagePullSecrets\":[null]}", "imagePullSecrets[0]", "not null"),
                Arguments.of("{\"name\":\"a\",\"volumes\":[null]}", "volumes[0]", "must not be null"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"memoryMib\":9223372036854775807}}",
                        "gpu.memoryMib",
                        "from 1 to 1048576"),
                // what Kubernetes or the runtime refuses (7)
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"\":\"v\"}}", "annotations", "empty key"),
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"a b\":\"v\"}}", "annotations.a b", "not a valid key"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"" + longKey + "\":\"v\"}}",
                        "annotations." + longKey,
                        "at most 63"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"Example.COM/x\":\"v\"}}",
                        "annotations.Example.COM/x",
                        "prefix"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"QUOTIENT.IO/team\":\"b\"}}",
                        "annotations.QUOTIENT.IO/team",
                        "set by Quotient"),
                Arguments.of(
                        "{\"name\":\"a\",\"labels\":{\"Quotient.io/job\":\"b\"}}",
                        "labels.Quotient.io/job",
                        "set by Quotient"),
                Arguments.of(
                        "{\"name\":\"a\",\"annotations\":{\"a\":\"" + bigValue + "\",\"b\":\"" + bigValue
                                + "\",\"c\":\"" + bigValue + "\",\"d\":\"" + bigValue + "\",\"e\":\"" + bigValue
                                + "\"}}",
                        "annotations",
                        "256 KiB"),
                Arguments.of("{\"name\":\"a\",\"command\":[\"sh\\u0000\"]}", "command[0]", "NUL"),
                Arguments.of("{\"name\":\"a\",\"args\":[\"-c\",\"x\\u0000y\"]}", "args[1]", "NUL"),
                Arguments.of("{\"name\":\"a\",\"env\":{\"A\":\"\\u0000\"}}", "env.A", "NUL"),
                Arguments.of("{\"name\":\"a\",\"command\":[\"\"]}", "command[0]", "executable"),
                Arguments.of("{\"name\":\"a\",\"template\":\"\"}", "template", "must not be empty"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{}}", "gpu", "asks for no GPU"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"memoryMib\":1000,\"memoryLimitMib\":9223372036854775807}}",
                        "gpu.memoryLimitMib",
                        "from 1 to 1048576"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100\\u0000\"]}",
                        "gpuModels[0]",
                        "control characters"),
                // a model pin no node can ever carry: a model is a nvidia.com/gpu.product label value
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100 SXM\"]}",
                        "gpuModels[0]",
                        "'A100 SXM' (8 characters) is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"" + "m".repeat(64) + "\"]}",
                        "gpuModels[0]",
                        "(64 characters) is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"../A100\"]}",
                        "gpuModels[0]",
                        "is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100\u202e\"]}",
                        "gpuModels[0]",
                        "is not a GPU model name"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100\",null]}",
                        "gpuModels[1]",
                        "must be a string (a GPU model name), not null"),
                // a \ud800 escape is half a UTF-16 pair: no Unicode text, though the body's bytes are valid UTF-8
                Arguments.of("{\"name\":\"a\",\"annotations\":{\"a\":\"\\ud800\"}}", "annotations.a", "lone surrogate"),
                Arguments.of("{\"name\":\"a\",\"env\":{\"A\":\"x\\udc00y\"}}", "env.A", "at character 1"),
                Arguments.of(
                        "{\"name\":\"a\",\"command\":[\"sh\",\"\\ude00\\ud83d\"]}", "command[1]", "lone surrogate"),
                // an empty runtime was read as none and the template's taken in silence, as a blank template is not
                Arguments.of(
                        "{\"name\":\"a\",\"template\":\"trainjob\",\"runtime\":\"\"}", "runtime", "must not be empty"),
                Arguments.of(
                        "{\"name\":\"a\",\"template\":\"trainjob\",\"runtime\":\" \\t\\n\"}",
                        "runtime",
                        "must not be empty"),
                // the schema says uniqueItems: a model named twice is refused, not merged
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"gpuModels\":[\"A100\",\"H100\",\"A100\"]}",
                        "gpuModels[2]",
                        "names 'A100' again (as gpuModels[0])"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5},\"gpuModels\":[" + models(65) + "]}",
                        "gpuModels",
                        "names 65 models; at most 64"),
                // a guarantee voided by a minimum runtime (2)
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"minRuntimeSeconds\":315360000}",
                        "minRuntimeSeconds",
                        "at most 3600 seconds are allowed on this cluster"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"minRuntimeSeconds\":9223372036854775807}",
                        "minRuntimeSeconds",
                        "at most 3600"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"count\":1},\"minRuntimeSeconds\":601}",
                        "minRuntimeSeconds",
                        "at most 600 seconds are allowed for team hostile"),
                // values read other than written: a share finer than the thousandths it is kept in, a mount path
                // climbing out of itself, memory no Kubernetes quantity holds
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.0015}}", "gpu.fraction", "finer than a thousandth"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5,\"fractionLimit\":0.7505}}",
                        "gpu.fractionLimit",
                        "at most three decimals"),
                // judged on the decimal as written: as doubles these were 0.5, 0.5, 1 and 1.0 (within any tolerance)
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.500000001}}",
                        "gpu.fraction",
                        "(0.500000001) is finer than a thousandth"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5000000000000000000001}}",
                        "gpu.fraction",
                        "finer than a thousandth"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.5,\"fractionLimit\":1.0000000000000001}}",
                        "gpu.fractionLimit",
                        "at most 1 (was 1.0000000000000001)"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":0.999999999999999999}}",
                        "gpu.fraction",
                        "(0.999999999999999999) is finer than a thousandth"),
                Arguments.of(
                        "{\"name\":\"a\",\"gpu\":{\"fraction\":1e-999999999}}",
                        "gpu.fraction",
                        "(1E-999999999) is finer than a thousandth"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"fraction\":5e999999999}}", "gpu.fraction", "less than 1"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"configMap\":\"c\","
                                + "\"mountPath\":\"/x/../../etc\"}]}",
                        "volumes[0].mountPath",
                        "'..' segments"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"configMap\":\"c\",\"mountPath\":\"/a/..\"}]}",
                        "volumes[0].mountPath",
                        "'..' segments"),
                // one place written two ways is mounted twice, the root hides the image, no path is no mount
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"configMap\":\"c\",\"mountPath\":\"/data\"},"
                                + "{\"name\":\"w\",\"configMap\":\"d\",\"mountPath\":\"//data/.\"}]}",
                        "volumes[1].mountPath",
                        "'//data/.' is the mount path of two volumes (/data)"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"configMap\":\"c\",\"mountPath\":\"/./\"}]}",
                        "volumes[0].mountPath",
                        "the container's root"),
                Arguments.of(
                        "{\"name\":\"a\",\"volumes\":[{\"name\":\"v\",\"configMap\":\"c\"}]}",
                        "volumes[0].mountPath",
                        "is required"),
                Arguments.of(
                        "{\"name\":\"a\",\"memoryMib\":9223372036854775807}", "memoryMib", "at most 8796093022207"),
                // more than the team may ever hold (8)
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":5}}", "gpu.count", "maxGpus"),
                Arguments.of("{\"name\":\"a\",\"gpu\":{\"count\":1000000}}", "gpu.count", "at most 1024"));
    }

    /** {@code count} distinct valid model names, as JSON strings separated by commas. */
    private static String models(int count) {
        return String.join(
                ",",
                Stream.iterate(0, i -> i + 1)
                        .limit(count)
                        .map(i -> "\"GPU-" + i + "\"")
                        .toList());
    }
}
