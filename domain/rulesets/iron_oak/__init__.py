"""Iron & Oak (GMT Games, 2013; seed 000, rules IO-0..IO-9), registered as ``iron_oak`` through
the ``wake.rulesets`` entry point (pyproject.toml: ``.ruleset:IronOakRuleset``).

Data (:mod:`.data`, provisional and replaceable), state (:mod:`.state`), the rule modules
(:mod:`.movement`, :mod:`.maneuvers`, :mod:`.gunnery`, :mod:`.criticals`), the sequence of play
(:mod:`.sequence`, :mod:`.status`, :mod:`.orders`, :mod:`.fire`, :mod:`.hands`, :mod:`.rules`),
the bot (:mod:`.bot`) and the read model (:mod:`.view`). See docs/iron-oak.md.
"""
