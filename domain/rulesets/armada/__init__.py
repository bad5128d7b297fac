"""Star Wars: Armada, the learning game (seed 002, rules SWA-…), registered as the ``armada``
ruleset through the ``wake.rulesets`` entry point (:mod:`.ruleset`).

The layers: the data files (:mod:`.data`: cards, tables, the damage deck and obstacles, community
measurements labelled so), the geometry (:mod:`.geometry`, :mod:`.arcs`, :mod:`.sight`,
:mod:`.maneuver`, :mod:`.overlap`), the phases (:mod:`.setup_phase`, :mod:`.command_phase`,
:mod:`.ship_phase`, :mod:`.maneuvering`, :mod:`.obstacles`, :mod:`.squadron_phase`,
:mod:`.status_phase`), the attack pipeline (:mod:`.attack`, :mod:`.defence`, :mod:`.damage`,
:mod:`.integration`), the bot and the read model. See docs/armada.md.
"""
