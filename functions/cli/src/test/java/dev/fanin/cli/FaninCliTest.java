package dev.fanin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.cli.ops.StackOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class FaninCliTest {

    static final List<String> COMMANDS = List.of("validate", "explain", "init", "local", "replay", "bench", "simulate", "windows",
            "dead-letters", "status");

    @Test
    void helpListsEverySubcommandWithItsSummaryAndTheExitCodes() {
        CliRun run = CliRun.run("--help");

        assertThat(run.exit()).isZero();
        for (String command : COMMANDS) {
            assertThat(run.out()).containsPattern("(?m)^  " + command + " +\\S");
        }
        assertThat(run.out()).contains("Exit codes: 0 success, 1 the input, the environment or a check is wrong, 2 the");
    }

    @Test
    void aMistypedBenchProfileIsAUsageErrorBeforeAnyReportLine() {
        CliRun run = CliRun.run("bench", "--profiles", "alert-storm,sparce", "--reps", "0");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("unknown profile \"sparce\"; profiles: alert-storm, sparse").doesNotContain("\tat ");
        assertThat(run.out()).as("no half report").isEmpty();
    }

    @Test
    void noArgumentsPrintsTheOverviewToStderrAndExits2() {
        CliRun run = CliRun.run();

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Usage: fanin [OPTIONS] <command>");
        assertThat(run.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"validate", "explain", "init", "local", "replay", "bench", "simulate", "windows", "dead-letters", "status",
            "config"})
    void everyCommandHasHelpThroughTheFlagAndTheHelpCommand(String command) {
        CliRun viaHelp = CliRun.run("help", command);
        CliRun viaFlag = CliRun.run(command, "--help");
        CliRun viaShortFlag = CliRun.run(command, "-h");

        assertThat(viaFlag.exit()).isZero();
        assertThat(viaFlag.out()).startsWith("Usage: fanin " + command + " [OPTIONS]").contains("-h, --help");
        assertThat(viaHelp.out()).isEqualTo(viaFlag.out());
        assertThat(viaShortFlag.out()).isEqualTo(viaFlag.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"windows list", "windows show", "windows close", "dead-letters list", "dead-letters show",
            "dead-letters redrive", "config diff", "config publish"})
    void everySubcommandOfAGroupHasHelpAndAGroupAloneIsAUsageError(String command) {
        String[] words = command.split(" ");
        CliRun viaFlag = CliRun.run(words[0], words[1], "--help");
        CliRun viaHelp = CliRun.run(words[0], "help", words[1]);
        CliRun group = CliRun.run(words[0]);

        assertThat(viaFlag.exit()).isZero();
        assertThat(viaFlag.out()).startsWith("Usage: fanin " + command + " [OPTIONS]").contains("--stack=NAME", "-h, --help");
        assertThat(group.exit()).isEqualTo(2);
        assertThat(group.err()).contains("Usage: fanin " + words[0], words[1]);
        assertThat(viaHelp.exit()).as("help is a command of fanin, not of " + words[0]).isEqualTo(2);
    }

    @Test
    void anOperatorCommandWithoutAStackNamesWhatToGive() {
        CliRun run = CliRun.run("windows", "list");
        CliRun status = CliRun.run("status");
        CliRun deadLetters = CliRun.run("dead-letters", "list");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).as("what the functions' runtime runs on")
                .contains("name the stack with --stack NAME, or give --table, --dead-letter-queue-url, --timer-queue-url, "
                        + "--late-events-queue-url, --bus\n");
        assertThat(status.err()).as("and the queue whose depth it shows")
                .contains("give --table, --dead-letter-queue-url, --input-queue-url, --timer-queue-url, --late-events-queue-url, --bus\n");
        assertThat(deadLetters.err()).contains("name the stack with --stack NAME, or give --dead-letter-queue-url\n");
    }

    @Test
    void theWindowsHelpSaysWhereItsSubcommandsReadThePipelinesInTheOrderTheyDo(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("pipelines.yaml"), "version: 1\n");
        Map<String, String> stack = Map.of("PipelineConfigLocation", "s3://bucket/pipelines.yaml");
        String group = oneLine(CliRun.run("windows", "--help").out());
        String list = oneLine(CliRun.run("windows", "list", "--help").out());

        // The order StackOptions.resolve reads them in (FaninRuntime.forOperator reads the location it names)...
        assertThat(configLocation(stack, "--stack", "s")).isEqualTo("s3://bucket/pipelines.yaml");
        assertThat(configLocation(stack, "--stack", "s", "--config", file.toString())).isEqualTo("file:" + file.toAbsolutePath());
        assertThat(configLocation(Map.of(), "--config", file.toString())).isEqualTo("file:" + file.toAbsolutePath());
        assertThat(configLocation(Map.of())).isEqualTo("classpath:fanin/pipelines.yaml");
        // ...is the order the group says, as its subcommands do.
        assertThat(group).contains("reads the pipelines: with --stack, where the stack's functions read them (its "
                + "PipelineConfigLocation parameter), unless --config FILE names others; without --stack, --config FILE, else the "
                + "bundled ones.");
        assertThat(group).doesNotContain("reads the pipelines it runs from --config FILE");
        assertThat(list).contains("--config=FILE the pipelines YAML the stack runs (default: the stack's PipelineConfigLocation with "
                + "--stack, else the bundled one)");
    }

    private static String configLocation(Map<String, String> stack, String... flags) throws Exception {
        StackOptions options = new StackOptions();
        new CommandLine(options).parseArgs(flags);
        return options.resolve(stack, Set.of()).configLocation();
    }

    private static String oneLine(String help) {
        return help.replaceAll("\\s+", " ");
    }

    @Test
    void helpOfOneCommandListsItsFlagsInTheirDeclaredOrder() {
        CliRun run = CliRun.run("explain", "--help");

        assertThat(run.out()).contains("--config=FILE", "--pipeline=NAME");
        assertThat(run.out().indexOf("--config=FILE")).isLessThan(run.out().indexOf("--pipeline=NAME"));
        assertThat(CliRun.run("help", "nope").exit()).isEqualTo(2);
    }

    @Test
    void aMistypedCommandExits2WithDidYouMean() {
        CliRun run = CliRun.run("valdate");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Unmatched argument at index 0: 'valdate'", "Did you mean: fanin validate",
                "run fanin --help for its commands");
    }

    @Test
    void aMistypedFlagExits2WithDidYouMean() {
        CliRun run = CliRun.run("validate", "--confg", "x.yaml");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("fanin validate: Unknown options: '--confg'", "Possible solutions: --config",
                "run fanin validate --help for its flags");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void missingValueRepeatedFlagPositionalAndSwitchWithValueAreUsageErrors() {
        CliRun missing = CliRun.run("validate", "--config");
        CliRun missingBeforeFlag = CliRun.run("explain", "--config", "--pipeline", "p");
        CliRun twice = CliRun.run("validate", "--config", "a", "--config=b");
        CliRun positional = CliRun.run("validate", "a.yaml");
        CliRun switchWithValue = CliRun.run("init", "--non-interactive=yes");

        assertThat(List.of(missing, missingBeforeFlag, twice, positional, switchWithValue)).allSatisfy(run -> {
            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.out()).isEmpty();
            assertThat(run.err()).doesNotContain("\tat ");
        });
        assertThat(missing.err()).contains("Missing required parameter for option '--config' (FILE)");
        assertThat(missingBeforeFlag.err()).contains("Expected parameter for option '--config' but found '--pipeline'");
        assertThat(twice.err()).contains("option '--config' (FILE) should be specified only once");
        assertThat(positional.err()).contains("Unmatched argument at index 1: 'a.yaml'");
        assertThat(switchWithValue.err()).contains("'--non-interactive'", "'yes'");
    }

    @Test
    void aValueOfTheWrongTypeNamesTheFlag() {
        CliRun run = CliRun.run("local", "--max-wait", "soon");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Invalid value for option '--max-wait': \"soon\" is not a duration such as 10s, 90s or 3m");
    }

    /** A rate of zero, a negative one or NaN ran a simulation that proved nothing and said OK. */
    @ParameterizedTest
    @CsvSource({"--rate, 0, --rate must be a positive number", "--rate, -5, --rate must be a positive number",
            "--rate, NaN, --rate must be a positive number", "--duplicates, NaN, must be between 0 and 1, was NaN"})
    void aSimulationOfNoTrafficOrNaNSharesIsAUsageError(String flag, String value, String message) {
        CliRun run = CliRun.run("simulate", "--events", "10", flag, value);

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains(message);
    }

    /** A preset runs its own workload: a tuning flag beside it was ignored without a word. */
    @Test
    void aPresetWithATuningFlagIsAUsageErrorNamingTheFlag() {
        CliRun run = CliRun.run("simulate", "--preset", "bounded", "--events", "10", "--crashes", "3");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--preset bounded runs its own workload: it takes --seed and --shapes only, not --events, --crashes");
    }

    /** With no flags, simulate ran the long run's million events, which needs about 10 GB of heap (a review). */
    @Test
    void simulateWithoutFlagsRunsATenthOfTheLongRun() {
        assertThat(CliRun.run("simulate", "--help").out()).contains("distinct events (default 100000; 1000000 for the");
    }

    @Test
    void theFunctionEnvHelpShowsTheReferenceForm() {
        assertThat(CliRun.run("config", "diff", "--help").out()).contains("the emit targets' ${NAME}").doesNotContain("null");
    }

    @Test
    void anUnexpectedFailureIsOneLineWithoutAStackTraceAndExits1() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new FaninCli(List.of(new Failing())).run(new String[] {"fail"}, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(exit).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("fanin fail failed: the table is gone: ResourceNotFoundException\n")
                .contains("FANIN_STACKTRACE=1")
                .doesNotContain("\tat ");
    }

    @Command(name = "fail", description = "fails the way an AWS call does")
    static final class Failing extends FaninCommand {
        @Override
        protected int run(Console console) {
            throw new IllegalStateException("the table is gone", new RuntimeException("ResourceNotFoundException"));
        }
    }
}
