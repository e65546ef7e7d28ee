"""The firmware's version, defined here only: `hello` reports it.

manifest.py, package.json, pyproject.toml and propctl carry the same string
(tests/project/test_versions.py holds them to it).
"""
VERSION = "0.1.0"
