package dev.fanin.core.machine;

/**
 * A MERGED session as fanin stored it before a key's accepting sessions shared one live item: absorbed sessions are no
 * longer written (they leave the live item), but a table may still hold such tombstones, and the machine and codec
 * must still read and ignore them.
 */
final class LegacyMerged {

    private LegacyMerged() {
    }

    static WindowState of(WindowState absorbed) {
        WindowState.Builder s = absorbed.toBuilder();
        s.status = dev.fanin.core.window.WindowStatus.MERGED;
        s.dueAt = null;
        s.timer = null;
        return s.build();
    }
}
