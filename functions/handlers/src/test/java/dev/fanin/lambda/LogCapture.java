package dev.fanin.lambda;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/** The log lines fanin's code writes (level and message) while running something, read from log4j itself. */
final class LogCapture {

    record Line(String level, String message) { }

    record Captured<T>(T result, List<Line> lines) {

        List<String> at(String level) {
            return lines.stream().filter(l -> l.level().equals(level)).map(Line::message).toList();
        }
    }

    private LogCapture() {
    }

    static synchronized <T> Captured<T> run(Supplier<T> work) {
        List<Line> lines = new ArrayList<>();
        AbstractAppender appender = new AbstractAppender("fanin-test-capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                synchronized (lines) {
                    lines.add(new Line(event.getLevel().name(), event.getMessage().getFormattedMessage()));
                }
            }
        };
        appender.start();
        Logger logger = (Logger) LogManager.getLogger("dev.fanin");
        logger.addAppender(appender);
        try {
            T result = work.get();
            synchronized (lines) {
                return new Captured<>(result, List.copyOf(lines));
            }
        } finally {
            logger.removeAppender(appender);
            appender.stop();
        }
    }
}
