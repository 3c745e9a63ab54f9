"""Tests of the project's structure: the import layers and the absence of import circles."""
