"""The pure pairing engines (pairing/engines/), no Django: one package per family of systems, and what they share."""
