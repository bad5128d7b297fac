"""Iron & Oak (GMT Games, 2013; seed 000, rules IO-0..IO-9), registered as ``iron_oak`` through
the ``wake.rulesets`` entry point (pyproject.toml: ``.ruleset:IronOakRuleset``).

Modules, each above the ones it uses (no import circles, tests/test_imports.py):

* data (provisional and replaceable): :mod:`.basics`, :mod:`.ship_cards`, :mod:`.action_cards`,
  :mod:`.tables`, :mod:`.scenario`, loaded by :mod:`.data`; :mod:`.options` (readings, versions);
* state and facts: :mod:`.markers`, :mod:`.state`, :mod:`.events`, :mod:`.turn_events`;
* rules: :mod:`.movement` (IO-5.1, 5.4), :mod:`.maneuvers` with :mod:`.drift` (IO-5.2),
  :mod:`.refloat` (IO-4.3), :mod:`.unfoul` (IO-4.4), :mod:`.towing` (IO-5.3),
  :mod:`.crossing_t` (IO-5.5), :mod:`.ramming` (IO-5.6); :mod:`.gunnery` (IO-6.0–6.2),
  :mod:`.criticals` (IO-6.3), :mod:`.responses`, :mod:`.repair` (IO-3.1.1),
  :mod:`.critical_chain`; :mod:`.evolve` applies every fact;
* the sequence of play: :mod:`.sequence`, :mod:`.status`, :mod:`.orders`, :mod:`.fire`,
  :mod:`.hands`, :mod:`.passing`, :mod:`.rules` (decide, victory);
* players and viewers: :mod:`.bot`, :mod:`.view`, :mod:`.summaries`, :mod:`.ruleset`.

See docs/iron-oak.md.
"""
