package dev.fanin.cli.replay;

/**
 * Counts the AWS calls of one handler invocation and, when armed, kills the invocation at one of them: before the
 * request is sent ({@code after == false}, the call has no effect) or after its successful response
 * ({@code after == true}, the call took effect but the caller never learns it). A call that fails while the crash
 * waits for its response moves the crash to the start of the next call.
 */
final class InvocationProbe {

    private final int crashAtCall;
    private final boolean after;
    private int calls;
    private boolean pending;
    private boolean crashed;

    private InvocationProbe(int crashAtCall, boolean after) {
        this.crashAtCall = crashAtCall;
        this.after = after;
    }

    /** Counts calls, never crashes. */
    static InvocationProbe counting() {
        return new InvocationProbe(0, false);
    }

    /** @param call 1-based index of the call to crash at */
    static InvocationProbe crashingAt(int call, boolean afterResponse) {
        if (call < 1) {
            throw new IllegalArgumentException("call must be >= 1, was " + call);
        }
        return new InvocationProbe(call, afterResponse);
    }

    synchronized void beforeCall(String operation) {
        calls++;
        if (pending || (calls == crashAtCall && !after)) {
            crash("before call " + calls + " (" + operation + ")");
        }
    }

    synchronized void afterSuccess(String operation) {
        if (calls == crashAtCall && after) {
            crash("after call " + calls + " (" + operation + ") took effect");
        }
    }

    synchronized void afterFailure() {
        if (calls == crashAtCall && after && !crashed) {
            pending = true;
        }
    }

    synchronized int calls() {
        return calls;
    }

    synchronized boolean crashed() {
        return crashed;
    }

    private void crash(String where) {
        crashed = true;
        pending = false;
        throw new SimulatedCrash(where);
    }
}
