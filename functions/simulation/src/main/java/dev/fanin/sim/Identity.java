package dev.fanin.sim;

/** The dedupe identity of an event: its id is unique within its pipeline and group key (docs/INTAKE.md). */
public record Identity(String pipeline, String key, String eventId) { }
