package dev.fanin.cli.ops;

import dev.fanin.cli.UsageException;
import dev.fanin.core.window.WindowRef;
import picocli.CommandLine.Option;

/** One window by its identity, as {@code fanin windows list} prints it: pipeline, key and window id. */
final class WindowSelector {

    @Option(names = "--pipeline", paramLabel = "NAME", required = true, description = "the window's pipeline")
    String pipeline;
    @Option(names = "--key", paramLabel = "KEY", description = "the group key, exactly as listed (quote it)")
    String key;
    @Option(names = "--window", paramLabel = "ID", description = "the window id as listed, e.g. T001764583200000 or S001764583212000")
    String windowId;

    /** @throws UsageException unless both key and window id are given */
    WindowRef ref() throws UsageException {
        if (key == null || windowId == null) {
            throw new UsageException("name the window with --pipeline, --key and --window (as fanin windows list prints them)");
        }
        return new WindowRef(pipeline, key, windowId);
    }
}
