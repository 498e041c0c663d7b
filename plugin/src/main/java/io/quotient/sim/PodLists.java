package io.quotient.sim;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * How openb pod lists are named: {@code openb_pod_list_VARIANT.csv} (the shipped {@code default}, {@code gpushare40},
 * ..., and the published families). One place for the name both ways, so that a variant name, a file and a family's
 * label agree.
 */
public final class PodLists {

    private static final String PREFIX = "openb_pod_list_";
    private static final String SUFFIX = ".csv";

    private PodLists() {}

    /** The variant's pod list in that folder. */
    public static Path of(Path folder, String variant) {
        return folder.resolve(PREFIX + variant + SUFFIX);
    }

    /**
     * A path as given (an existing file, or anything with a folder or ending in {@code .csv}), or for a bare variant
     * name its pod list in the folder, which is only looked for then (it may need the environment to be found).
     */
    public static Path resolve(String variantOrPath, Supplier<Path> folder) {
        Path given = Path.of(variantOrPath);
        if (Files.exists(given) || variantOrPath.contains("/") || variantOrPath.endsWith(SUFFIX)) {
            return given;
        }
        return of(folder.get(), variantOrPath);
    }

    /** Whether the file is named as a pod list. */
    public static boolean isPodList(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(PREFIX) && name.endsWith(SUFFIX);
    }

    /** The variant a pod list file is named for ({@code gpuspec33} for {@code .../openb_pod_list_gpuspec33.csv}). */
    public static String variant(Path file) {
        String name = file.getFileName().toString();
        name = name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : name;
        return name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : name;
    }
}
