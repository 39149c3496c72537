"""The tabletop combat turn (issue 9): Vampire: The Masquerade Revised and Dark Ages: Vampire.

Modules: :mod:`.dice` (pools, successes, botches), :mod:`.initiative`,
:mod:`.actions` (multiple actions, Celerity, full defense), :mod:`.maneuvers`
(the maneuver tables, ``data/maneuvers.toml``), :mod:`.combat` (an attack and
its resolution: defense, damage, soak, the health track) and :mod:`.turn` (the
state of a combat turn as plain data, for the narrator's screen).

Issue 37: :mod:`.carried` (what the combat carries from turn to turn),
:mod:`.movement`, :mod:`.ammunition`, :mod:`.aiming`, :mod:`.blood_use`,
:mod:`.holds`, :mod:`.shared_dodge`, :mod:`.turn_end`, and :mod:`.situation`
(what the attack's phases check for them).
"""
