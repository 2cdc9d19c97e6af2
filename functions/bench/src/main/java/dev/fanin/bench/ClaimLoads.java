package dev.fanin.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The load a visit claims after. A timer or sweep visit reads a window (or a key's live item) and, when it is due,
 * claims it: that {@code GetItem} is how fanin builds its claim (a whole-item write conditional on the version read,
 * freezing the revision it emits), so it is booked with the design's work, not with the timers or the sweeper, though
 * the competent design flushes without a read (its conditional update returns the item): it shows as fanin's excess
 * over the design. Not on the exactly-once line: the read decides whether the window is due and gives the claim its
 * version, which a claim needs whether or not a commit follows. Its purpose shows only once the claim is written, so
 * each item's latest {@code GetItem} is remembered, and a first claim of the item by the same function moves it to
 * {@link Purpose#CLAIM_LOAD}. An ingest's load stays the ingest's (it is the design's work already).
 */
final class ClaimLoads {

    private record Load(String function, Purpose purpose, double readUnits) { }

    private final DynamoDbBill bill;
    /** By item (partition and sort key): its latest {@code GetItem}. */
    private final Map<List<String>, Load> latest = new HashMap<>();

    ClaimLoads(DynamoDbBill bill) {
        this.bill = bill;
    }

    /** A {@code GetItem} of the item {@code pk}, {@code sk} just billed for {@code purpose}. */
    void loaded(String pk, String sk, Purpose purpose, double readUnits) {
        latest.put(List.of(pk, sk), new Load(bill.function(), purpose, readUnits));
    }

    /** A first claim of the item {@code pk}, {@code sk} just billed: its visit's load, if this function made it, is the claim's. */
    void claimed(String pk, String sk) {
        Load load = latest.remove(List.of(pk, sk));
        String function = bill.function();
        if (load != null && load.function().equals(function) && !function.equals(DynamoDbBill.INGEST)) {
            bill.rebookRead(function, load.purpose(), Purpose.CLAIM_LOAD, MeteredWindowStore.GET, load.readUnits());
        }
    }
}
