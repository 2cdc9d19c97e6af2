package dev.fanin.core.service;

import dev.fanin.core.machine.WindowMachine;

/**
 * One pipeline's share of a batch, as both window kinds ingest it: the batch (its time, counts and follow-ups), the
 * pipeline's machine, and the watermark the batch decides every window of the pipeline at.
 */
record PipelineBatch(IngestBatch batch, WindowMachine machine, long watermark) {

    String pipeline() {
        return machine.config().name();
    }
}
