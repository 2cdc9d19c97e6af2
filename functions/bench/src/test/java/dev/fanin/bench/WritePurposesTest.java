package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WritePurposesTest {

    private static final Instant EXPIRES = Instant.parse("2026-12-06T00:00:00Z");
    private static final WindowRef WINDOW = new WindowRef("p", "k", "T000000000000000");
    private static final WindowRef SESSION = new WindowRef("p", "k", "S000000000000000");

    private final WritePurposes purposes = new WritePurposes();

    @Test
    void aTimeWindowsLaterClaimsAndCommitsAreCorrectionsAndItsLateEventsAreEvents() {
        StoredWindow open = window(WINDOW, 0, WindowStatus.OPEN);
        StoredWindow claimed = window(WINDOW, 2, WindowStatus.CLAIMED);
        StoredWindow closed = window(WINDOW, 3, WindowStatus.CLOSED);

        assertThat(purposes.ofCreate(open)).isEqualTo(Purpose.WINDOW_EVENTS);
        assertThat(purposes.ofReplace(window(WINDOW, 1, WindowStatus.OPEN), window(WINDOW, 1, WindowStatus.OPEN))).isEqualTo(Purpose.WINDOW_EVENTS);
        assertThat(purposes.ofReplace(window(WINDOW, 1, WindowStatus.OPEN), claimed)).isEqualTo(Purpose.CLAIM);
        assertThat(purposes.ofReplace(claimed, closed)).isEqualTo(Purpose.COMMIT);
        assertThat(purposes.ofReplace(closed, window(WINDOW, 4, WindowStatus.CLOSED))).isEqualTo(Purpose.WINDOW_EVENTS);
        assertThat(purposes.ofReplace(closed, window(WINDOW, 4, WindowStatus.CLAIMED))).isEqualTo(Purpose.CORRECTION);
        assertThat(purposes.ofReplace(window(WINDOW, 4, WindowStatus.CLAIMED), window(WINDOW, 5, WindowStatus.CLOSED)))
                .isEqualTo(Purpose.CORRECTION);
    }

    @Test
    void aSessionIsClaimedInItsLiveItemCommittedToItsOwnItemThenRemoved() {
        LiveSessions none = LiveSessions.none("p", "k");
        LiveSessions open = live(1, window(SESSION, 1, WindowStatus.OPEN));
        LiveSessions claimed = live(2, window(SESSION, 2, WindowStatus.CLAIMED));

        assertThat(purposes.ofLive(none, open)).isEqualTo(Purpose.LIVE_EVENTS);
        assertThat(purposes.ofLive(open, live(2, window(SESSION, 2, WindowStatus.OPEN)))).isEqualTo(Purpose.LIVE_EVENTS);
        assertThat(purposes.ofLive(open, claimed)).isEqualTo(Purpose.CLAIM);
        assertThat(purposes.ofCreate(window(SESSION, 2, WindowStatus.CLOSED))).isEqualTo(Purpose.COMMITTED_HEAD);
        assertThat(purposes.ofLive(claimed, live(3))).isEqualTo(Purpose.LIVE_REMOVAL);
        assertThat(purposes.ofReplace(window(SESSION, 3, WindowStatus.CLOSED), window(SESSION, 3, WindowStatus.CLAIMED)))
                .isEqualTo(Purpose.CORRECTION);
    }

    @Test
    void anOpenSessionLeavingTheLiveItemIsAMerge() {
        WindowRef other = new WindowRef("p", "k", "S000000000000100");
        LiveSessions two = live(1, window(SESSION, 1, WindowStatus.OPEN), window(other, 1, WindowStatus.OPEN));

        assertThat(purposes.ofLive(two, live(2, window(SESSION, 2, WindowStatus.OPEN)))).isEqualTo(Purpose.SESSION_MERGE);
    }

    /** A write that adds ids and counts none records too-late verdicts; one that counts is the events'. */
    @Test
    void aWriteThatAddsIdsAndCountsNoneRecordsTooLateVerdicts() {
        purposes.countWith(w -> Long.parseLong(w.state()));
        StoredWindow closed = counted(WINDOW, WindowStatus.CLOSED, "1", "a");

        assertThat(purposes.ofReplace(closed, counted(WINDOW, WindowStatus.CLOSED, "1", "a", "b"))).isEqualTo(Purpose.TOO_LATE_RECORD);
        assertThat(purposes.ofReplace(closed, counted(WINDOW, WindowStatus.CLOSED, "2", "a", "b"))).isEqualTo(Purpose.WINDOW_EVENTS);
        assertThat(purposes.ofReplace(closed, counted(WINDOW, WindowStatus.CLOSED, "1", "a"))).as("no id added").isEqualTo(Purpose.WINDOW_EVENTS);
        assertThat(purposes.ofReplace(closed, counted(WINDOW, WindowStatus.CLAIMED, "1", "a", "b"))).isEqualTo(Purpose.CLAIM);
    }

    /**
     * A time window created closed, counting nothing, keeps the verdicts of its too-late events; the event that later
     * opens it and the first revision's claim and commit are told as any window's.
     */
    @Test
    void aWindowCreatedOnlyToKeepVerdictsRecordsThem() {
        purposes.countWith(w -> Long.parseLong(w.state()));
        StoredWindow verdicts = counted(WINDOW, WindowStatus.CLOSED, "0", "x!");
        StoredWindow opened = counted(WINDOW, WindowStatus.OPEN, "1", "x!", "y");
        StoredWindow claimed = counted(WINDOW, WindowStatus.CLAIMED, "1", "x!", "y");

        assertThat(purposes.ofCreate(verdicts)).isEqualTo(Purpose.TOO_LATE_RECORD);
        assertThat(purposes.ofReplace(verdicts, counted(WINDOW, WindowStatus.CLOSED, "0", "x!", "z!"))).isEqualTo(Purpose.TOO_LATE_RECORD);
        assertThat(purposes.ofReplace(verdicts, opened)).isEqualTo(Purpose.WINDOW_EVENTS);
        assertThat(purposes.ofReplace(opened, claimed)).isEqualTo(Purpose.CLAIM);
        assertThat(purposes.ofReplace(claimed, counted(WINDOW, WindowStatus.CLOSED, "1", "x!", "y"))).isEqualTo(Purpose.COMMIT);
    }

    /** A session's committed head counting no event (a manifest that does not count as one) is its commit (a review). */
    @Test
    void aCommittedSessionHeadCountingNoEventIsItsCommit() {
        purposes.countWith(w -> Long.parseLong(w.state()));
        StoredWindow head = counted(SESSION, WindowStatus.CLOSED, "0", "manifest");

        assertThat(purposes.ofCreate(head)).isEqualTo(Purpose.COMMITTED_HEAD);
        assertThat(purposes.ofReplace(head, counted(SESSION, WindowStatus.CLAIMED, "1", "manifest", "x"))).isEqualTo(Purpose.CORRECTION);
    }

    /** So is a live write that adds a verdict no session keeps, or ids to a session that counts none. */
    @Test
    void aLiveWriteThatRecordsVerdictsAndCountsNoneRecordsTooLateVerdicts() {
        purposes.countWith(w -> Long.parseLong(w.state()));
        LiveSessions one = live(1, counted(SESSION, WindowStatus.OPEN, "1", "a"));

        LiveSessions inTheItem = new LiveSessions("p", "k", 1, one.sessions(), null, java.util.Map.of("x!", EXPIRES), EXPIRES);
        assertThat(purposes.ofLive(one, inTheItem)).isEqualTo(Purpose.TOO_LATE_RECORD);
        assertThat(purposes.ofLive(one, live(1, counted(SESSION, WindowStatus.OPEN, "1", "a", "y!")))).isEqualTo(Purpose.TOO_LATE_RECORD);
        assertThat(purposes.ofLive(one, live(1, counted(SESSION, WindowStatus.OPEN, "2", "a", "b")))).isEqualTo(Purpose.LIVE_EVENTS);
    }

    private static StoredWindow counted(WindowRef ref, WindowStatus status, String events, String... ids) {
        return new StoredWindow(ref, 1, status, null, EXPIRES, 0, null, Set.of(ids), events, null);
    }

    private static StoredWindow window(WindowRef ref, long version, WindowStatus status) {
        return new StoredWindow(ref, version, status, null, EXPIRES, 0, null, Set.of(), "{}", null);
    }

    private static LiveSessions live(long version, StoredWindow... sessions) {
        return new LiveSessions("p", "k", version, List.of(sessions), null, EXPIRES);
    }
}
