package dev.fanin.cli.explain;

import dev.fanin.core.config.EventTimeSpec;
import dev.fanin.core.config.PipelineConfig;

/** Which messages the pipeline takes and what it reads from them. */
final class InputSection {

    private InputSection() {
    }

    static String render(PipelineConfig p) {
        StringBuilder md = new StringBuilder();
        md.append("**Input.** ");
        if (p.match().all().isEmpty()) {
            md.append("Every message not taken by an earlier pipeline, ");
        } else {
            md.append("Messages where ").append(Describe.conditions(p.match().all()))
                    .append(" (pipelines are tried in file order; the first that matches takes the message), ");
        }
        md.append("in ").append(Describe.envelope(p.envelope())).append(".\n");
        md.append("- Group key: ").append(Describe.values(p.key()))
                .append(" (joined; at most ").append(p.bounds().maxKeyLength()).append(" UTF-8 bytes).\n");
        md.append("- Event id, for dedupe: ")
                .append(p.eventId() == null ? "the SQS message id" : Describe.path(p.eventId())).append(".\n");
        EventTimeSpec time = p.eventTime();
        md.append("- Event time: ");
        if (time.path() == null) {
            md.append("no field is read, so every event takes the SQS sent timestamp");
        } else {
            md.append(Describe.path(time.path())).append(" (format ").append(Describe.yaml(time.format())).append("); when absent, ")
                    .append(time.fallback() == EventTimeSpec.TimeFallback.REJECT ? "the message is rejected"
                            : "the SQS sent timestamp");
        }
        md.append("; an event time more than ").append(Human.config(time.maxFuture())).append(" ahead of or ")
                .append(Human.config(time.maxPast())).append(" behind the SQS sent time is rejected to the dead-letter path.\n");
        return md.toString();
    }
}
