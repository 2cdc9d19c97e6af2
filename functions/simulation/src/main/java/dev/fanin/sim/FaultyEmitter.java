package dev.fanin.sim;

import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.window.WindowRef;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link AggregateEmitter} decorator: crashes before or after the call, per-entry failures (as EventBridge's
 * {@code FailedEntryCount} reports them), and stalls past the claim's lease so another worker takes the claim over.
 */
public final class FaultyEmitter implements AggregateEmitter {

    private final AggregateEmitter inner;
    private final Faults faults;

    public FaultyEmitter(AggregateEmitter inner, Faults faults) {
        this.inner = inner;
        this.faults = faults;
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        List<WindowRef> refs = requests.stream().map(r -> AggregateIds.parse(r.aggregateId()).ref()).toList();
        faults.beforeCall("emit", refs, false);
        faults.maybeStallEmitter(refs);
        List<Request> sent = new ArrayList<>();
        List<Boolean> failed = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            boolean fail = faults.failEmitEntry(refs.get(i));
            failed.add(fail);
            if (!fail) {
                sent.add(requests.get(i));
            }
        }
        List<Result> innerResults = sent.isEmpty() ? List.of() : inner.emit(sent);
        List<Result> results = new ArrayList<>();
        int j = 0;
        for (int i = 0; i < requests.size(); i++) {
            if (failed.get(i)) {
                results.add(new Result(requests.get(i).aggregateId(), false, "SimulatedFailure: entry rejected by the target"));
            } else {
                results.add(innerResults.get(j++));
            }
        }
        faults.afterCall("emit", refs);
        return results;
    }
}
