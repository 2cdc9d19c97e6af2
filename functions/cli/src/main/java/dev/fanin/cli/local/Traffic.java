package dev.fanin.cli.local;

import java.util.Comparator;
import java.util.List;

/**
 * What a local run plays: timed sends, plus follow-ups sent as soon as an aggregate of their pipeline and key has
 * fired (the sample's late event must arrive after its window closed, however long closing takes), and what must
 * have happened by the end for the run to succeed.
 */
record Traffic(List<Send> timed, List<FollowUp> followUps, List<Expectation> expectations) {

    /** Sent once an aggregate of {@code pipeline} whose key contains {@code keyPart} has been emitted. */
    record FollowUp(String pipeline, String keyPart, Send send) { }

    /** Something the run must show: an aggregate of a pipeline (optionally with a close reason), or a dead letter. */
    record Expectation(String description, String pipeline, String closeReason, boolean deadLetter) {

        static Expectation aggregate(String pipeline) {
            return new Expectation("an aggregate of " + pipeline, pipeline, null, false);
        }

        static Expectation aggregate(String pipeline, String closeReason, String description) {
            return new Expectation(description, pipeline, closeReason, false);
        }

        static Expectation deadLetter(String description) {
            return new Expectation(description, null, null, true);
        }
    }

    Traffic {
        timed = timed.stream().sorted(Comparator.comparing(Send::at)).toList();
        followUps = List.copyOf(followUps);
        expectations = List.copyOf(expectations);
    }
}
