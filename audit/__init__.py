"""The append-only audit log of every write a TD or member makes: who, when, what changed."""
