package dev.fanin.aws.dynamodb;

import dev.fanin.core.watermark.Backlog;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A watermark shard's {@link Backlog} evidence as one string attribute, {@code bk}: its groups, oldest first, each
 * {@code <oldest sent>/<first seen>/<last seen>} (epoch ms), joined by {@code ;}. One attribute, so that a
 * compare-and-set compares the evidence whole. A shard written before the evidence had groups holds {@code bkSent}
 * and {@code bkAt} (one group, first seen when last seen): read as such until a write replaces them.
 */
final class BacklogAttribute {

    static final String NAME = "bk";
    static final String LEGACY_SENT = "bkSent";
    static final String LEGACY_AT = "bkAt";

    private BacklogAttribute() {
    }

    static String encode(Backlog backlog) {
        return backlog.sightings().stream()
                .map(s -> s.oldestSentMillis() + "/" + s.firstSeenMillis() + "/" + s.seenAtMillis())
                .collect(Collectors.joining(";"));
    }

    /** The evidence an item holds, if any. */
    static Optional<Backlog> decode(Map<String, AttributeValue> item) {
        if (item == null) {
            return Optional.empty();
        }
        if (item.containsKey(NAME)) {
            return Optional.of(parse(item.get(NAME).s()));
        }
        if (item.containsKey(LEGACY_SENT) && item.containsKey(LEGACY_AT)) {
            return Optional.of(new Backlog(Long.parseLong(item.get(LEGACY_SENT).n()), Long.parseLong(item.get(LEGACY_AT).n())));
        }
        return Optional.empty();
    }

    /** A condition that a shard's evidence is as read, with its values (names: {@code #bk}, {@code #bkSent}, {@code #bkAt}). */
    record Unchanged(String condition, Map<String, AttributeValue> values) { }

    /** That the shard still holds {@code written} (this layout), or no evidence at all when null. */
    static Unchanged unchanged(Backlog written) {
        return written == null ? unchanged(Map.of()) : unchanged(Map.of(NAME, AttributeValue.fromS(encode(written))));
    }

    /** That the shard still holds what {@code item} held (a failed condition's old item; null: nothing). */
    static Unchanged unchanged(Map<String, AttributeValue> item) {
        if (item != null && item.containsKey(NAME)) {
            return new Unchanged("#bk = :held", Map.of(":held", item.get(NAME)));
        }
        if (item != null && item.containsKey(LEGACY_SENT) && item.containsKey(LEGACY_AT)) {
            return new Unchanged("attribute_not_exists(#bk) AND #bkSent = :os AND #bkAt = :oa",
                    Map.of(":os", item.get(LEGACY_SENT), ":oa", item.get(LEGACY_AT)));
        }
        return new Unchanged("attribute_not_exists(#bk) AND attribute_not_exists(#bkAt)", Map.of());
    }

    private static Backlog parse(String text) {
        List<Backlog.Sightings> groups = Arrays.stream(text.split(";")).map(group -> {
            String[] f = group.split("/");
            if (f.length != 3) {
                throw new IllegalStateException("watermark shard attribute " + NAME + " is not <sent>/<first>/<last>[;...]: " + text);
            }
            return new Backlog.Sightings(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]));
        }).toList();
        return new Backlog(groups);
    }
}
