"""Bundled rulesets, one TOML file per variant."""
