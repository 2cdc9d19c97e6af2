package dev.fanin.cli.local;

import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * Sends the functions' structured JSON logs (the lines CloudWatch Logs would hold) to a file instead of the
 * terminal, where they would bury the live view.
 */
final class FunctionLogs {

    private FunctionLogs() {
    }

    /** Reconfigures log4j2 for this process: everything at INFO and above (WARN for libraries) to {@code file}. */
    static void redirectTo(Path file) {
        ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
        b.setStatusLevel(Level.ERROR);
        b.add(b.newAppender("functions", "File")
                .addAttribute("fileName", file.toString())
                .addAttribute("append", false)
                .add(b.newLayout("JsonTemplateLayout").addAttribute("eventTemplateUri", "classpath:LambdaJsonLayout.json")));
        b.add(b.newLogger("dev.fanin", Level.INFO).add(b.newAppenderRef("functions")).addAttribute("additivity", false));
        b.add(b.newRootLogger(Level.WARN).add(b.newAppenderRef("functions")));
        Configurator.reconfigure(b.build());
    }
}
