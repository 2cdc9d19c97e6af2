package dev.fanin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FaninCliTest {

    @Test
    void helpListsEverySubcommandWithItsSummary() {
        CliRun run = CliRun.run("--help");

        assertThat(run.exit()).isZero();
        for (String command : List.of("validate", "explain", "init", "local", "replay", "bench", "simulate")) {
            assertThat(run.out()).containsPattern("(?m)^  " + command + " +\\S");
        }
    }

    @Test
    void noArgumentsPrintsTheOverviewToStderrAndExits2() {
        CliRun run = CliRun.run();

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("usage: fanin <command>");
    }

    @Test
    void helpForOneCommandListsItsFlags() {
        CliRun viaHelp = CliRun.run("help", "explain");
        CliRun viaFlag = CliRun.run("explain", "--help");

        assertThat(viaHelp.exit()).isZero();
        assertThat(viaHelp.out()).contains("usage: fanin explain [flags]", "--config FILE", "--pipeline NAME");
        assertThat(viaFlag.out()).isEqualTo(viaHelp.out());
        assertThat(CliRun.run("help", "nope").exit()).isEqualTo(2);
    }

    @Test
    void unknownCommandExits2NamingTheCommands() {
        CliRun run = CliRun.run("valdate");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("unknown command \"valdate\"", "validate, explain, init, local, replay, bench, simulate");
    }

    @Test
    void unknownFlagMissingValueAndRepeatedFlagAreUsageErrors() {
        CliRun unknown = CliRun.run("validate", "--confg", "x.yaml");
        CliRun missing = CliRun.run("validate", "--config");
        CliRun missingBeforeFlag = CliRun.run("explain", "--config", "--pipeline", "p");
        CliRun twice = CliRun.run("validate", "--config", "a", "--config=b");
        CliRun positional = CliRun.run("validate", "a.yaml");

        assertThat(List.of(unknown, missing, missingBeforeFlag, twice, positional)).allSatisfy(run -> {
            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.out()).isEmpty();
        });
        assertThat(unknown.err()).contains("unknown flag --confg; known flags: --config");
        assertThat(missing.err()).contains("--config needs a value: --config FILE");
        assertThat(missingBeforeFlag.err()).contains("--config needs a value");
        assertThat(twice.err()).contains("--config is given twice");
        assertThat(positional.err()).contains("unexpected argument \"a.yaml\"");
    }

    @Test
    void switchWithAValueIsAUsageError() {
        CliRun run = CliRun.run("init", "--non-interactive=yes");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--non-interactive takes no value");
    }
}
