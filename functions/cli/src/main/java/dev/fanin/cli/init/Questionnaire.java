package dev.fanin.cli.init;

import dev.fanin.cli.UsageException;
import dev.fanin.core.config.ConfigDefaults;
import dev.fanin.core.config.Envelope;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The seed designer's questions, in order: the events and their key, id and time; their rate; the action and whether
 * an incomplete batch is harmful; the grouping; whether a batch has a known size or an end marker; how late events
 * can be; any deadline. Each answer comes from its flag, its default or the terminal (see {@link Asker}).
 */
public final class Questionnaire {

    private Questionnaire() {
    }

    public static InitAnswers ask(Asker asker) throws UsageException {
        String name = asker.ask("name", "Pipeline name (lower-case letters, digits, '-')", "my-pipeline", Parsers::name);
        String events = asker.ask("events", "What are the events (a few words)?", "small events", Parsers::prose);
        Envelope envelope = asker.ask("envelope", "How do they reach the SQS queue: raw, eventbridge, sns or s3?", "raw", Parsers::envelope);
        List<KeyPart> key = asker.ask("key", "Which fields group them into batches (comma-separated paths; PATH~REGEX keeps a regex's "
                + "first group)?", defaultKey(envelope), KeyPart::parseList);
        String eventId = asker.ask("event-id", "Which field identifies an event, for dedupe (none: " + defaultIdentity(envelope) + ")?",
                defaultEventId(envelope), Parsers::optionalPath);
        String eventTime = asker.ask("event-time", "Which field says when it happened (none: " + defaultTime(envelope) + ")?",
                "", Parsers::optionalPath);
        double rate = asker.ask("rate", "Events per second for one key at the peak of a burst?", "10", Parsers::rate);
        String action = asker.ask("action", "What does the aggregated action do (a few words)?", "one downstream action", Parsers::prose);
        boolean harmful = asker.ask("incomplete", "Is firing on an incomplete batch harmful or merely suboptimal?", "suboptimal",
                Parsers::harmful);
        InitAnswers.Grouping grouping = asker.ask("grouping", "How are events grouped: quiet (a burst until a quiet gap), fixed "
                + "(fixed periods) or overlapping (a moving period)?", "quiet", text -> Parsers.choice(InitAnswers.Grouping.class, text));
        Duration gap = null;
        Duration size = null;
        Duration slide = null;
        switch (grouping) {
            case QUIET -> gap = asker.ask("quiet-gap", "How long a quiet period ends a burst?", "30s", Parsers::positiveDuration);
            case FIXED -> size = asker.ask("size", "How long is one period?", "5m", Parsers::positiveDuration);
            case OVERLAPPING -> {
                size = asker.ask("size", "How long a period does each aggregate cover?", "10m", Parsers::positiveDuration);
                Duration covered = size;
                slide = asker.ask("slide", "How often is it refreshed?", "1m",
                        text -> Parsers.slide(text, covered, ConfigDefaults.MOST_SLIDING_WINDOWS_PER_EVENT));
            }
        }
        refuseFlagsOfOtherGroupings(asker, grouping);
        BatchEnd end = batchEnd(asker, envelope);
        Duration maxDelay = asker.ask("max-delay", "SQS delivers at least once and out of order: how far can an event trail the "
                + "newest one (late, retried or out of order)?", "5s", Parsers::durationOrZero);
        Duration deadline = asker.ask("deadline", "Must the aggregate fire within a deadline after the batch's first event?", "",
                Parsers::optionalDuration);
        return new InitAnswers(name, events, action, envelope, key, eventId, eventTime, rate, harmful, grouping, gap, size, slide,
                end.count, end.countPath, end.sentinelPath, end.sentinelMatches, maxDelay, deadline);
    }

    /** How a batch ends besides time: a known size, a size carried by the events, an end marker. */
    private record BatchEnd(Integer count, String countPath, String sentinelPath, String sentinelMatches) {
    }

    private static BatchEnd batchEnd(Asker asker, Envelope envelope) throws UsageException {
        if (asker.given("expected-count") && asker.given("expected-count-path")) {
            throw new UsageException("fanin init: give --expected-count (a fixed batch size) or --expected-count-path (a field "
                    + "carrying it), not both");
        }
        if (asker.given("sentinel-path") && !asker.given("sentinel-matches")) {
            throw new UsageException("fanin init: --sentinel-path needs --sentinel-matches, the regex that recognises the end marker");
        }
        boolean anyGiven = asker.given("expected-count") || asker.given("expected-count-path") || asker.given("sentinel-matches");
        String kind = anyGiven || !asker.interactive() ? "flags"
                : asker.ask("batch", "Does a batch have a known size or an end marker: none, count (a fixed size), count-path (a field "
                + "carrying the size) or sentinel (an end marker)?", "none", Questionnaire::batchKind);
        Integer count = null;
        String countPath = null;
        String sentinelPath = null;
        String sentinelMatches = null;
        if (asker.given("expected-count") || kind.equals("count")) {
            count = asker.ask("expected-count", "How many events make a batch?", "10", Parsers::count);
        }
        if (asker.given("expected-count-path") || kind.equals("count-path")) {
            countPath = asker.ask("expected-count-path", "Which field carries the batch size?", "$.count", Parsers::path);
        }
        if (asker.given("sentinel-matches") || kind.equals("sentinel")) {
            sentinelPath = asker.ask("sentinel-path", "Which field tells the end marker?", defaultSentinelPath(envelope), Parsers::path);
            sentinelMatches = asker.ask("sentinel-matches", "Which regex does that field match on the end marker?",
                    envelope == Envelope.S3 ? ".*/_SUCCESS" : "batch\\.end", Parsers::regex);
        }
        return new BatchEnd(count, countPath, sentinelPath, sentinelMatches);
    }

    private static String batchKind(String text) {
        String kind = text.strip().toLowerCase(Locale.ROOT);
        if (List.of("none", "count", "count-path", "sentinel").contains(kind)) {
            return kind;
        }
        throw new IllegalArgumentException("answer none, count, count-path or sentinel");
    }

    private static void refuseFlagsOfOtherGroupings(Asker asker, InitAnswers.Grouping grouping) throws UsageException {
        if (grouping != InitAnswers.Grouping.QUIET && asker.given("quiet-gap")) {
            throw new UsageException("fanin init: --quiet-gap applies to --grouping quiet only");
        }
        if (grouping == InitAnswers.Grouping.QUIET && asker.given("size")) {
            throw new UsageException("fanin init: --size applies to --grouping fixed or overlapping only");
        }
        if (grouping != InitAnswers.Grouping.OVERLAPPING && asker.given("slide")) {
            throw new UsageException("fanin init: --slide applies to --grouping overlapping only");
        }
    }

    private static String defaultKey(Envelope envelope) {
        return switch (envelope) {
            case RAW, SNS -> "$.key";
            case EVENTBRIDGE -> "$envelope.account,$envelope.region,$envelope.source";
            case S3 -> "$.s3.bucket.name,$.s3.object.key~^(.*)/[^/]+$";
        };
    }

    private static String defaultEventId(Envelope envelope) {
        return switch (envelope) {
            case EVENTBRIDGE -> "$envelope.id";
            case SNS -> "$envelope.MessageId";
            case RAW, S3 -> "";
        };
    }

    private static String defaultIdentity(Envelope envelope) {
        return envelope == Envelope.S3 ? "the object key" : "the SQS message id";
    }

    private static String defaultTime(Envelope envelope) {
        return envelope == Envelope.RAW ? "the SQS sent time" : "the envelope's timestamp";
    }

    private static String defaultSentinelPath(Envelope envelope) {
        return envelope == Envelope.S3 ? "$.s3.object.key" : "$.type";
    }
}
