"""A third-party ruleset in miniature, registered only through a ``wake.rulesets`` entry point of
a package made in the tests (tests/test_plugins.py): it proves that a ruleset Wake has never
heard of plugs in and runs the published conformance suite."""
