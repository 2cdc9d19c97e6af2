package dev.fanin.core.service;

import dev.fanin.core.machine.WindowMachine;

/**
 * One pipeline's share of a batch, as both window kinds ingest it: the batch (its time, counts and follow-ups), the
 * pipeline's machine, the watermark the batch decides every window of the pipeline at, and what it read up front.
 */
record PipelineBatch(IngestBatch batch, WindowMachine machine, long watermark, BatchReads reads) {

    PipelineBatch(IngestBatch batch, WindowMachine machine, long watermark) {
        this(batch, machine, watermark, BatchReads.none());
    }

    String pipeline() {
        return machine.config().name();
    }

    PipelineBatch reading(BatchReads read) {
        return new PipelineBatch(batch, machine, watermark, read);
    }
}
