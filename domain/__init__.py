"""Wake engine: dice, events, game aggregate, rulesets, store, record format and CLI."""
