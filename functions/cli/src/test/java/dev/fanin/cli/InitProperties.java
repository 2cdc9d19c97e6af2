package dev.fanin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.PipelineConfig;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever the flags, init writes a file the loader accepts, or refuses with a usage error and writes nothing. */
class InitProperties {

    @Property(tries = 300)
    void everyFlagCombinationLoadsOrIsRefusedWithAReason(@ForAll("flagSets") List<String> flags) {
        List<String> args = new ArrayList<>(List.of("init", "--non-interactive"));
        args.addAll(flags);

        CliRun run = CliRun.run(args.toArray(String[]::new));

        if (run.exit() == 0) {
            PipelineConfig p = ConfigLoader.load(run.out(), "init").pipelines().get(0);
            assertThat(p.triggers().maxLifetime()).isPositive();
        } else {
            assertThat(run.exit()).as(run.err()).isEqualTo(2);
            assertThat(run.err()).contains("a deadline of").contains("nothing tells fanin a batch is complete sooner");
            assertThat(run.out()).isEmpty();
        }
    }

    @Provide
    Arbitrary<List<String>> flagSets() {
        Arbitrary<List<String>> envelope = option("--envelope", Arbitraries.of("raw", "eventbridge", "sns", "s3"));
        Arbitrary<List<String>> key = option("--key", Arbitraries.of("$.a", "$.a,$.b", "$envelope.source,$['x y']",
                "$.s3.object.key~^(.*)/[^/]+$", "$.items[0].id"));
        Arbitrary<List<String>> ids = option("--event-id", Arbitraries.of("", "$.id", "$envelope.id"));
        Arbitrary<List<String>> time = option("--event-time", Arbitraries.of("", "$.time", "$envelope.time"));
        Arbitrary<List<String>> rate = option("--rate", Arbitraries.of("0.01", "1", "250", "100000"));
        Arbitrary<List<String>> harm = option("--incomplete", Arbitraries.of("harmful", "suboptimal"));
        Arbitrary<List<String>> grouping = Arbitraries.oneOf(
                option("--quiet-gap", durations()).map(gap -> concat(List.of("--grouping", "quiet"), gap)),
                option("--size", durations()).map(size -> concat(List.of("--grouping", "fixed"), size)),
                Arbitraries.of(List.of("--size", "10m", "--slide", "1m"), List.of("--size", "1h", "--slide", "15m"),
                        List.of("--size", "5s", "--slide", "5s")).map(s -> concat(List.of("--grouping", "overlapping"), s)));
        Arbitrary<List<String>> completeness = Arbitraries.of(
                List.of(), List.of("--expected-count", "1"), List.of("--expected-count", "64"),
                List.of("--expected-count", "5000000"), List.of("--expected-count-path", "$.n"),
                List.of("--sentinel-matches", ".*/_SUCCESS"), List.of("--sentinel-matches", "end", "--sentinel-path", "$.kind"),
                List.of("--expected-count", "3", "--sentinel-matches", "done"));
        Arbitrary<List<String>> delay = option("--max-delay", Arbitraries.of("0s", "1s", "30s", "10m", "8d", "365d"));
        Arbitrary<List<String>> deadline = option("--deadline", Arbitraries.of("", "1s", "30s", "30m", "2h", "365d"));
        return Combinators.combine(List.of(envelope, key, ids, time, rate, harm, grouping, completeness, delay, deadline))
                .as(parts -> {
                    List<String> all = new ArrayList<>();
                    parts.forEach(all::addAll);
                    return all;
                });
    }

    private static Arbitrary<String> durations() {
        return Arbitraries.of("1ms", "1s", "30s", "10m", "1h", "1d", "365d");
    }

    /** The flag with one of the values, or the flag left out (its default). */
    private static Arbitrary<List<String>> option(String flag, Arbitrary<String> values) {
        return Arbitraries.oneOf(Arbitraries.just(List.<String>of()), values.map(value -> List.of(flag, value)));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
