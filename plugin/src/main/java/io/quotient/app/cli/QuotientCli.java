package io.quotient.app.cli;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Entry point of {@code quotient.jar}: dispatches to a subcommand. Only {@code serve} starts Spring,
 * so {@code simulate} and {@code inspect} start in milliseconds.
 */
public final class QuotientCli {

    private static final Map<String, CliCommand> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("serve", new ServeCommand());
        COMMANDS.put("simulate", new SimulateCommand());
        COMMANDS.put("replay", new ReplayCommand());
        COMMANDS.put("generate", new GenerateCommand());
        COMMANDS.put("inspect", new InspectCommand());
    }

    private QuotientCli() {}

    public static void main(String[] args) {
        int code = run(args);
        if (code != 0 || !"serve".equals(args.length > 0 ? args[0] : "")) {
            System.exit(code);
        }
    }

    static int run(String[] args) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            System.out.println(usage());
            return args.length == 0 ? 2 : 0;
        }
        CliCommand command = COMMANDS.get(args[0]);
        if (command == null) {
            System.err.println("quotient: unknown subcommand '" + args[0] + "'.\n" + usage());
            return 2;
        }
        return command.run(Arrays.copyOfRange(args, 1, args.length));
    }

    static String usage() {
        StringBuilder sb = new StringBuilder("Usage: java -jar quotient.jar <subcommand> [options]\n\nSubcommands:\n");
        COMMANDS.forEach((name, c) -> sb.append(String.format("  %-10s %s%n", name, c.summary())));
        sb.append("\nRun 'java -jar quotient.jar <subcommand> --help' for the options of one subcommand.");
        return sb.toString();
    }
}
