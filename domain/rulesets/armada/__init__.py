"""Star Wars: Armada learning game (seed 002, rules SWA-…): work in progress, not yet registered
as a ruleset (no ``wake.rulesets`` entry point).

This first slice is the geometry layer and the data files the rest of the ruleset builds on:
:mod:`.data` (validated card, table, damage-deck and obstacle data, some of it community
measurements and labelled so), :mod:`.geometry` (poses, bases, tokens, hull zones, targeting
points, squadron discs), :mod:`.arcs` (firing arcs, range and distance), :mod:`.sight` (line of
sight and obstruction), :mod:`.maneuver` (the maneuver tool) and :mod:`.overlap` (overlaps, the
play-area edge and the speed step-down). See docs/armada.md.
"""
