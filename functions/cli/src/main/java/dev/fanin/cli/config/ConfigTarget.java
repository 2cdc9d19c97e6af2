package dev.fanin.cli.config;

import dev.fanin.cli.UsageException;
import dev.fanin.cli.ops.OperatorClients;
import dev.fanin.lambda.ConfigLocation;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where a config command finds the published configuration: the {@code PipelineConfigLocation} of the stack named
 * with {@code --stack} (one DescribeStacks call), or a location given with {@code --location}.
 */
final class ConfigTarget {

    @Option(names = "--stack", paramLabel = "NAME", description = "the CloudFormation stack fanin was deployed as: its"
            + " PipelineConfigLocation parameter says where its functions read their pipelines")
    private String stack;
    @Option(names = "--location", paramLabel = "LOCATION", description = "the location itself, as PipelineConfigLocation"
            + " spells it: s3://BUCKET/KEY, ssm:/NAME, appconfig:APP/ENV/PROFILE, file:PATH or classpath:RESOURCE (instead of --stack)")
    private String location;
    @Option(names = "--function-env", paramLabel = "NAME=VALUE", description = "a variable you added to the stack's"
            + " functions' environment, for the emit targets' $${NAME} references (template.yaml gives them only"
            + " FANIN_EMIT_BUS_NAME and FANIN_EMIT_QUEUE_URL); repeatable")
    private Map<String, String> functionEnv = new LinkedHashMap<>();

    /** Where the published configuration is, and the environment the functions resolve emit targets against. */
    record Resolved(ConfigLocation location, FunctionEnvironment environment) { }

    /** @throws UsageException when neither or both are given, or the location is malformed */
    void check() throws UsageException {
        if ((stack == null) == (location == null)) {
            throw new UsageException("name the stack with --stack NAME, or the location with --location LOCATION (one of them)");
        }
        if (location != null) {
            parse(location, "--location");
        }
    }

    /** The location given with {@code --location} when it is in the jar or a file: read without AWS. */
    Optional<ConfigLocation> local() throws UsageException {
        return location == null ? Optional.empty() : Optional.of(parse(location, "--location")).filter(l -> !l.isExternal());
    }

    /** The location and the functions' environment, read from the stack's parameters and outputs when it is named. */
    Resolved resolve(OperatorClients clients) throws UsageException {
        if (location != null) {
            return new Resolved(parse(location, "--location"), FunctionEnvironment.assumed(functionEnv));
        }
        Map<String, String> found = clients.outputsAndParameters(stack);
        String configLocation = found.get("PipelineConfigLocation");
        if (configLocation == null) {
            throw new IllegalStateException("stack " + stack + " has no parameter PipelineConfigLocation: is it a fanin stack?");
        }
        return new Resolved(ConfigLocation.parse(configLocation), FunctionEnvironment.ofStack(stack, found, functionEnv));
    }

    /** The functions' environment for a location read without AWS ({@link #local}). */
    FunctionEnvironment localEnvironment() {
        return FunctionEnvironment.assumed(functionEnv);
    }

    private static ConfigLocation parse(String text, String flag) throws UsageException {
        try {
            return ConfigLocation.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(flag + " must be " + ConfigLocation.FORMS + ", was \"" + text + "\"");
        }
    }
}
