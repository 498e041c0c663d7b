package io.quotient.app.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Splits a subcommand's arguments into options: {@code --name value}, {@code --name=value} or a flag. */
final class CliOptions {

    /** One option as given; {@code value} is null for a flag. */
    record Option(String name, String value) {}

    private CliOptions() {}

    /** Whether the arguments ask for help ({@code --help} or {@code -h}) anywhere, whatever else they hold. */
    static boolean asksForHelp(String[] args) {
        for (String arg : args) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (name.equals("--help") || name.equals("-h")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The options in order.
     *
     * @throws IllegalArgumentException for an unknown option, a valued one without its value, or one given twice (the
     *                                  last one won in silence: which one did the caller mean?)
     */
    static List<Option> parse(String[] args, Set<String> valued, Set<String> flags) {
        List<Option> options = new ArrayList<>();
        Set<String> given = new HashSet<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if ((flags.contains(name) || valued.contains(name)) && !given.add(name)) {
                throw new IllegalArgumentException("option " + name + " is given twice; give each option once");
            }
            if (flags.contains(name)) {
                options.add(new Option(name, null));
            } else if (!valued.contains(name)) {
                throw new IllegalArgumentException("unknown option '" + arg + "'");
            } else if (arg.contains("=")) {
                options.add(new Option(name, arg.substring(arg.indexOf('=') + 1)));
            } else if (i + 1 < args.length) {
                options.add(new Option(name, args[++i]));
            } else {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
        }
        return options;
    }
}
