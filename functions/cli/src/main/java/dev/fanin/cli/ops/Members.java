package dev.fanin.cli.ops;

import java.util.List;

/** Member numbers as ranges: [1, 2, 3, 7] is "1-3, 7". */
final class Members {

    private Members() {
    }

    static String ranges(List<Integer> ascending) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < ascending.size()) {
            int j = i;
            while (j + 1 < ascending.size() && ascending.get(j + 1) == ascending.get(j) + 1) {
                j++;
            }
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(ascending.get(i));
            if (j > i) {
                text.append('-').append(ascending.get(j));
            }
            i = j + 1;
        }
        return text.toString();
    }
}
