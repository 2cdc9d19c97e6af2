package dev.fanin.cli.ops;

import dev.fanin.aws.dynamodb.WindowTableReader;
import dev.fanin.cli.Console;
import dev.fanin.cli.QuietLogs;
import dev.fanin.cli.UsageException;
import dev.fanin.cli.ops.StackOptions.Resource;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.lambda.FaninRuntime;
import dev.fanin.lambda.NoValidConfigurationException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A stack connected for operating: its resources, the functions' own runtime over them (so a close is the functions'
 * close), the adapter's table reader, and the clients. One per command run.
 */
public final class Operated implements AutoCloseable {

    /**
     * What the functions' runtime runs on: their settings require the table and the three queues, and the pipelines'
     * emit targets resolve against the bus ({@code ${FANIN_EMIT_BUS_NAME}}).
     */
    private static final Set<Resource> RUNTIME = EnumSet.of(Resource.TABLE, Resource.DEAD_LETTER_QUEUE, Resource.TIMER_QUEUE,
            Resource.LATE_EVENTS_QUEUE, Resource.BUS);

    private final OperatedStack stack;
    private final OperatorClients clients;
    /** Null for a command that does not run it ({@link #withoutRuntime}); so is {@link #table}. */
    private final FaninRuntime runtime;
    private final WindowTableReader table;

    private Operated(OperatedStack stack, OperatorClients clients, FaninRuntime runtime) {
        this.stack = stack;
        this.clients = clients;
        this.runtime = runtime;
        this.table = runtime == null ? null : new WindowTableReader(clients.dynamoDb(), stack.tableName());
    }

    /**
     * For a command that runs the functions' runtime on the stack ({@code windows}, {@code status}): the resources the
     * runtime runs on, and {@code alsoUses}, those the command reads itself.
     *
     * @throws UsageException when the stack or those resources are not named, or no region is known
     */
    public static Operated connect(StackOptions options, Console console, Clock clock, Resource... alsoUses) throws UsageException {
        Set<Resource> uses = EnumSet.copyOf(RUNTIME);
        uses.addAll(List.of(alsoUses));
        return open(options, uses, console, Optional.of(clock));
    }

    /**
     * For a command that only reads and moves queue messages ({@code dead-letters}): the resources it {@code uses}, and
     * no runtime, so neither the pipelines nor the table are read.
     *
     * @throws UsageException when the stack or those resources are not named, or no region is known
     */
    public static Operated withoutRuntime(StackOptions options, Set<Resource> uses, Console console) throws UsageException {
        return open(options, uses, console, Optional.empty());
    }

    /** @param runtimeClock the runtime's clock; empty for none */
    private static Operated open(StackOptions options, Set<Resource> uses, Console console, Optional<Clock> runtimeClock)
            throws UsageException {
        // Without --stack, the flags alone must name the resources: say what is missing before any AWS call.
        OperatedStack named = options.stackName().isEmpty() ? options.resolve(Map.of(), uses) : null;
        QuietLogs.off();
        OperatorClients clients = new OperatorClients(console.env());
        try {
            OperatedStack stack = named != null ? named : options.resolve(clients.outputsAndParameters(options.stackName().get()), uses);
            FaninRuntime runtime = runtimeClock.isEmpty() ? null
                    : FaninRuntime.forOperator(stack.functionEnvironment(console.env(), clients.region()), runtimeClock.get());
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

    /**
     * @throws IllegalStateException when the stack's configuration cannot be read or is invalid, saying how to name
     *         the one in force (the functions keep running on it)
     */
    public FaninEngine engine() {
        try {
            return runtime().engine();
        } catch (NoValidConfigurationException e) {
            throw new IllegalStateException(e.getMessage() + ". The functions keep running on the last valid configuration they"
                    + " read: give it with --config FILE to read the windows", e);
        }
    }

    public FaninConfig config() {
        return engine().config();
    }

    /**
     * The pipelines an operator sees: the configuration's, then the retired ones (removed or renamed by a configuration
     * change, whose windows still close under their last definition, and may need an operator as much as any).
     */
    public List<PipelineConfig> pipelines() {
        return engine().sweptPipelines();
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
        runtime();      // a command without the runtime has no table named
        return table;
    }

    private FaninRuntime runtime() {
        if (runtime == null) {
            throw new IllegalStateException("connected without the functions' runtime (Operated.withoutRuntime)");
        }
        return runtime;
    }

    @Override
    public void close() {
        clients.close();
    }
}
