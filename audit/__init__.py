"""The append-only audit log: who changed what, when, from what to what (`audit.log.record`)."""
