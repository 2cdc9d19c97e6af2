package dev.fanin.core.aggregate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The {@code cap} smallest distinct elements of a collection, ascending. Keeping the smallest (rather than the first
 * arrived) makes capped sets independent of arrival order, so merging them is associative and commutative.
 */
final class SortedCapped {

    private SortedCapped() {
    }

    static <T> List<T> smallest(Collection<T> elements, Comparator<? super T> order, int cap) {
        TreeSet<T> sorted = new TreeSet<>(order);
        sorted.addAll(elements);
        List<T> kept = new ArrayList<>(Math.min(cap, sorted.size()));
        for (T element : sorted) {
            if (kept.size() == cap) {
                break;
            }
            kept.add(element);
        }
        return List.copyOf(kept);
    }

    static <T> List<T> largest(Collection<T> elements, Comparator<? super T> order, int cap) {
        List<T> descending = smallest(elements, order.reversed(), cap);
        List<T> ascending = new ArrayList<>(descending);
        java.util.Collections.reverse(ascending);
        return List.copyOf(ascending);
    }

    static <T> List<T> union(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return all;
    }
}
