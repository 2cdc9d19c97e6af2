package dev.fanin.aws.dynamodb;

import dev.fanin.core.watermark.Backlog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A watermark shard's {@link Backlog} evidence as one string attribute, {@code bk}: its groups, oldest first, each
 * {@code <oldest sent>/<first seen>/<last seen>} (epoch ms), and its floors, each {@code F<oldest sent>/<resumed
 * at>/<last seen>}, joined by {@code ;}. One attribute, so that a compare-and-set compares the evidence whole. A shard written
 * before the evidence had groups holds {@code bkSent} and {@code bkAt} (one group, first seen when last seen): read as
 * such, beside {@code bk} if a writer of that version wrote them during a deployment, until a write replaces them.
 */
final class BacklogAttribute {

    static final String NAME = "bk";
    static final String LEGACY_SENT = "bkSent";
    static final String LEGACY_AT = "bkAt";
    private static final String FLOOR = "F";

    private BacklogAttribute() {
    }

    static String encode(Backlog backlog) {
        Stream<String> groups = backlog.sightings().stream().map(s -> s.oldestSentMillis() + "/" + s.firstSeenMillis() + "/" + s.seenAtMillis());
        Stream<String> floor = backlog.floors().stream().map(f -> FLOOR + f.oldestSentMillis() + "/" + f.resumedAtMillis() + "/" + f.seenAtMillis());
        return Stream.concat(groups, floor).collect(Collectors.joining(";"));
    }

    /** The evidence an item holds, if any. */
    static Optional<Backlog> decode(Map<String, AttributeValue> item) {
        if (item == null) {
            return Optional.empty();
        }
        Optional<Backlog.Sightings> legacy = !item.containsKey(LEGACY_SENT) || !item.containsKey(LEGACY_AT) ? Optional.empty()
                : Optional.of(group(new String[] {item.get(LEGACY_SENT).n(), item.get(LEGACY_AT).n(), item.get(LEGACY_AT).n()}));
        if (!item.containsKey(NAME)) {
            return legacy.map(l -> new Backlog(List.of(l)));
        }
        Backlog stored = parse(item.get(NAME).s());
        return Optional.of(legacy.map(l -> new Backlog(Stream.concat(stored.sightings().stream(), Stream.of(l)).toList(), stored.floors()))
                .orElse(stored));
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
        List<Backlog.Sightings> groups = new ArrayList<>();
        List<Backlog.Floor> floors = new ArrayList<>();
        for (String entry : text.split(";")) {
            boolean isFloor = entry.startsWith(FLOOR);
            String[] f = (isFloor ? entry.substring(FLOOR.length()) : entry).split("/");
            if (f.length != 3) {
                throw new IllegalStateException("watermark shard attribute " + NAME + " is not <sent>/<first>/<last>[;...][;F<sent>/<resumed>/<last>]: "
                        + text);
            }
            if (isFloor) {
                floors.add(new Backlog.Floor(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])));
            } else {
                groups.add(group(f));
            }
        }
        return new Backlog(groups, floors);
    }

    private static Backlog.Sightings group(String[] f) {
        return new Backlog.Sightings(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]));
    }
}
