package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.window.WindowRef;
import org.junit.jupiter.api.Test;

class WindowKeysTest {

    @Test
    void keysWithSeparatorsAndUnicodeReadBackExactly() {
        String key = "acct#1|eu-west-1#H|servicé ✓#S#3";
        String pk = WindowKeys.windowPk("alerts", key);
        assertThat(pk).isEqualTo("W#alerts#" + key);
        assertThat(WindowKeys.keyOf("alerts", pk)).isEqualTo(key);
    }

    @Test
    void headAndSliceSortKeysShareTheWindowPrefixAndParseBack() {
        String head = WindowKeys.headSk("T000000000001000");
        String slice = WindowKeys.sliceSk("T000000000001000", 12);
        assertThat(head).isEqualTo("T000000000001000#H");
        assertThat(slice).as("zero-padded, so slices sort by number").isEqualTo("T000000000001000#S#000000000012");
        assertThat(WindowKeys.sliceOf("T000000000001000#S#12")).as("as slices were numbered before bounded loads").isEqualTo(12);
        assertThat(head).startsWith(WindowKeys.windowSkPrefix("T000000000001000"));
        assertThat(slice).startsWith(WindowKeys.windowSkPrefix("T000000000001000"));
        assertThat(WindowKeys.windowIdOf(head)).isEqualTo("T000000000001000");
        assertThat(WindowKeys.windowIdOf(slice)).isEqualTo("T000000000001000");
        assertThat(WindowKeys.isHead(head)).isTrue();
        assertThat(WindowKeys.isHead(slice)).isFalse();
        assertThat(WindowKeys.sliceOf(slice)).isEqualTo(12);
        assertThat(WindowKeys.sliceOf(head)).isEqualTo(-1);
    }

    @Test
    void aboveTheHeadIsBetweenTheHeadAndTheFirstSlice() {
        String id = "S000000000001000";
        assertThat(WindowKeys.headSk(id)).isLessThan(WindowKeys.aboveHead(id));
        assertThat(WindowKeys.aboveHead(id)).isLessThan(WindowKeys.sliceSk(id, 0)).isLessThan(id + "#S#0");
        assertThat(WindowKeys.isHead(WindowKeys.aboveHead(id))).isFalse();
    }

    @Test
    void windowPrefixOfOneIdIsNotAPrefixOfALongerId() {
        // begins_with(sk, "T1#") must not match window "T10".
        assertThat(WindowKeys.headSk("T10")).doesNotStartWith(WindowKeys.windowSkPrefix("T1"));
    }

    @Test
    void shardIsStableAcrossJvmsAndInRange() {
        WindowRef ref = new WindowRef("alerts", "acct|region", "T000000000001000");
        // Pinned (computed independently: first 4 bytes of SHA-256("11:acct|regionT000000000001000") mod 16): a change
        // here would strand every due item and counter shard written by an older deployment.
        assertThat(WindowKeys.shardOf(ref, 16)).isEqualTo(WindowKeys.shardOf(new WindowRef("other", "acct|region", "T000000000001000"), 16));
        assertThat(WindowKeys.shardOf(ref, 16)).isEqualTo(PINNED_SHARD);
        for (int i = 0; i < 200; i++) {
            assertThat(WindowKeys.shardOf(new WindowRef("p", "k" + i, "T1"), 7)).isBetween(0, 6);
        }
    }

    private static final int PINNED_SHARD = 15;

    @Test
    void rejectsIdsAndPipelinesThatWouldBreakParsing() {
        assertThatThrownBy(() -> WindowKeys.headSk("T1#2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WindowKeys.windowPk("Alerts#x", "k")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WindowKeys.keyOf("alerts", "W#other#k")).isInstanceOf(IllegalArgumentException.class);
    }
}
