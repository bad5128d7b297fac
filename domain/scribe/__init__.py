"""Recording a real tabletop game as it is played (issue 20): the scribe's side of the engine.

Nothing here knows a rule system. :mod:`domain.scribe.menu` says what a side may order now, as
plain data a page or a terminal renders (from the ruleset's ``order_menu`` or, for a ruleset
without one, from its legal orders); :mod:`domain.scribe.probe` runs an order without throwing
dice to find what chance it still needs (which dice, for what, or which card from which deck)
and what it would do; the entry points that store an order decided at the table live in
:mod:`domain.scribe.table`.
"""
