package dev.fanin.core.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean": the known name closest to a misspelt one, by edit distance with transpositions. */
final class Suggestions {

    private Suggestions() {
    }

    /**
     * The closest candidate, if it is close enough to be a plausible typo: at most 2 edits (or a third of the
     * name's length, for long names), and fewer edits than either name has characters.
     */
    static Optional<String> closest(String typed, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = distance(typed.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        int allowed = Math.max(2, typed.length() / 3);
        boolean plausible = bestDistance <= allowed && bestDistance < Math.min(typed.length(), best.length());
        return plausible ? Optional.of(best) : Optional.empty();
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
