package io.quotient.sim;

import java.util.ArrayList;
import java.util.List;

/** The seeds of a set of runs as people write them: {@code 42..51}, {@code 42,43,50} or {@code 42}. */
public final class Seeds {

    private Seeds() {}

    /**
     * @param option how the caller names the setting, for the error ({@code --seeds}, {@code benchmark.seeds})
     * @throws IllegalArgumentException for anything else, or a range that goes down or holds over 10,001 seeds
     */
    public static List<Long> parse(String spec, String option) {
        try {
            List<Long> seeds = new ArrayList<>();
            if (spec.contains("..")) {
                long from = Long.parseLong(spec.substring(0, spec.indexOf("..")).trim());
                long to = Long.parseLong(spec.substring(spec.indexOf("..") + 2).trim());
                if (to < from || to - from > 10_000) {
                    throw new IllegalArgumentException(
                            option + " range " + spec + " must go upwards and hold at most 10001 seeds");
                }
                for (long s = from; s <= to; s++) {
                    seeds.add(s);
                }
            } else {
                for (String part : spec.split(",")) {
                    seeds.add(Long.parseLong(part.trim()));
                }
            }
            return List.copyOf(seeds);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    option + " must be FROM..TO, a comma-separated list or one number, was '" + spec + "'");
        }
    }
}
