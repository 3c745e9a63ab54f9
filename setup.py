"""Compiles the matcher of the pairing engines (see pairing/engines/matcher_build.py)."""

from setuptools import setup

setup(cffi_modules=["pairing/engines/matcher_build.py:ffibuilder"])
