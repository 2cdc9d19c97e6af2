package dev.fanin.cli.ops;

import dev.fanin.aws.dynamodb.WindowTableReader;
import dev.fanin.cli.Console;
import dev.fanin.cli.QuietLogs;
import dev.fanin.cli.UsageException;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.lambda.FaninRuntime;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A stack connected for operating: its resources, the functions' own runtime over them (so a close is the functions'
 * close), the adapter's table reader, and the clients. One per command run.
 */
public final class Operated implements AutoCloseable {

    private final OperatedStack stack;
    private final OperatorClients clients;
    private final FaninRuntime runtime;
    private final WindowTableReader table;

    private Operated(OperatedStack stack, OperatorClients clients, FaninRuntime runtime) {
        this.stack = stack;
        this.clients = clients;
        this.runtime = runtime;
        this.table = new WindowTableReader(clients.dynamoDb(), stack.tableName());
    }

    /** @throws UsageException when the stack or its resources are not named, or no region is known */
    public static Operated connect(StackOptions options, Console console, Clock clock) throws UsageException {
        // Without --stack, the flags alone must name the resources: say what is missing before any AWS call.
        OperatedStack named = options.stackName().isEmpty() ? options.resolve(Map.of()) : null;
        QuietLogs.off();
        OperatorClients clients = new OperatorClients(console.env());
        try {
            OperatedStack stack = named != null ? named : options.resolve(clients.outputsAndParameters(options.stackName().get()));
            FaninRuntime runtime = FaninRuntime.forOperator(stack.functionEnvironment(console.env(), clients.region()), clock);
            return new Operated(stack, clients, runtime);
        } catch (UsageException | RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    public OperatedStack stack() {
        return stack;
    }

    public OperatorClients clients() {
        return clients;
    }

    public FaninEngine engine() {
        return runtime.engine();
    }

    public FaninConfig config() {
        return runtime.engine().config();
    }

    /**
     * The pipelines an operator sees: the configuration's, then the retired ones (removed or renamed by a configuration
     * change, whose windows still close under their last definition, and may need an operator as much as any).
     */
    public List<PipelineConfig> pipelines() {
        return runtime.engine().sweptPipelines();
    }

    /** A configured or retired pipeline by name. */
    public Optional<PipelineConfig> known(String name) {
        return pipelines().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** Whether {@code pipeline} is retired: no longer configured, its windows still open. */
    public boolean isRetired(PipelineConfig pipeline) {
        return config().pipeline(pipeline.name()).isEmpty();
    }

    /** @throws UsageException naming the pipelines when there is no such one */
    public PipelineConfig pipeline(String name) throws UsageException {
        return known(name).orElseThrow(() -> new UsageException("no pipeline \"" + name + "\"; the stack's pipelines are: "
                + String.join(", ", pipelines().stream().map(p -> p.name() + (isRetired(p) ? " (retired)" : "")).toList())));
    }

    public WindowTableReader table() {
        return table;
    }

    @Override
    public void close() {
        clients.close();
    }
}
