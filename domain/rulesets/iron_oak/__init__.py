"""Iron & Oak (GMT Games, 2013; seed 000, rules IO-0..IO-9).

Only the data layer exists so far (:mod:`domain.rulesets.iron_oak.data`); the ruleset is not
registered yet.
"""
