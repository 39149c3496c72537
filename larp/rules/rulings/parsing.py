"""The stateless API's input as the rulings' own types: JSON-like data in, the same
:class:`~larp.rules.rulings.people.Side` values and :class:`~larp.rules.scene.Scene`
a service builds from stored characters, so the stateless and the stored flow rule
the same way.

A side is an object with the keys of :class:`larp.rules.challenge.Contestant`
(``name``, ``traits`` or ``held``/``lost_earlier``, ``bid``, ``powers``, ``lead``,
``abilities``, ``willpower``, ``health``, ``darkness``...) and these:

- ``body``: ``{"creature": "vampire", "fortitude": 2, "armor": "ballistic_vest",
  "armor_left": 1, "bashing": 0, "lethal": 2, "aggravated": 0}``: his kind, Fortitude
  (Mettle's Healthy level at 2, met-reference 3.5), the armor he wears and the damage
  marked;
- ``attack``: ``{"weapon": "pistol", "potence": 2, "lethal_by_prowess": false,
  "head_shot": false}``: the weapon he carries (a live armory key) and what changes
  his damage (in a mass challenge also ``action``: strike, bite or weapon); ``full_auto`` (a
  Full-Auto weapon fired emptying the clip, met-reference 3.7); ``stake``
  (a Staking weapon driven at the heart), and the simple tests after the hit as thrown at
  the table, ``high_caliber_test`` and ``staking_tests`` (``{"player": "rock",
  "narrator": "paper"}`` each; left out: drawn by the app, and the ruling says so);
- ``celerity``: the Celerity level active this turn (Rapidity's Bomb needs 3; left
  out of a one-on-one challenge, the powers listed count as active);
- ``negative_traits``: his Negative Traits (a call on him is then judged), and
  ``calls_negative``: the Negative Trait he calls on the other side;
- ``specialisation`` (true: the sheet's specialised Ability; or the Ability's name), ``acute_senses``
  (the senses of his Acute Sense Merits), ``frenzy`` (``"frenzy"``, ``"rotschreck"`` or ``""``),
  ``waive_darkness``, ``lethal_by_prowess``, ``head_shot``, ``ignore_wounds``
  (a Willpower Trait spent to ignore wound penalties, Incapacitated included, this turn);
- ``qualities``: the catalogue keys of his Merits and Flaws that change a ruling
  (``ambidextrous``, ``acute_sense``, ``concentration``; ``data/merits_flaws.toml``), and
  ``specialisations``: Ability name to its specialisations (``{"Melee": ["Two-Weapon
  (Florentine)"]}``); ``ambidextrous`` and ``two_weapon`` given outright win over them;
- ``scene``: what differs for him in the scene (:func:`larp.rules.scene.side_scene_from_dict`);
- ``morality``: his Humanity or Path in MET Traits, 0 to 5 (how long a torpor the ruling puts
  him in lasts, met-reference 5.2; left out: 0).

``powers`` takes the challenge powers (vigor, rapidity, puissance, fleetness, might,
endurance, intensity) and the other powers that change a ruling: mettle and the
sight powers of ``data/darkness.toml`` (heightened senses, eyes of the beast...).
``lead`` left out is inferred from the bid Trait (``data/trait_leads.toml``), as for
stored characters; ``weapon`` may be a live armory key instead of a card.
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Callable, Mapping
from typing import Any

from larp.rules.challenge import Category, Contestant, Health, Power
from larp.rules.challenge.parsing import challenge_from_dict, contestant_from_dict, flag_of, names_of, specialisation_of
from larp.rules.darkness import DarknessLevel, darkness_table
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.hits import attack_from_dict, body_from_dict
from larp.rules.rulings.one_on_one import OneOnOne
from larp.rules.rulings.people import Choice, Person, Side
from larp.rules.scene import (RangeBand, Scene, SideScene, Worn, scene_from_dict, scene_with_sense,
                              side_scene_from_dict)
from larp.rules.settings import ChronicleSettings

#: Keys a side may give beside those of :class:`~larp.rules.challenge.Contestant`.
SIDE_EXTRAS = ("body", "attack", "celerity", "negative_traits", "calls_negative", "specialisation",
               "waive_darkness", "lethal_by_prowess", "head_shot", "scene", "qualities", "specialisations",
               "ignore_wounds", "morality")
CHALLENGE_EXTRAS = ("scene",)


def other_powers() -> set[str]:
    """The powers, other than the challenge powers, that change a ruling: Fortitude's Mettle
    and the sight powers of ``data/darkness.toml`` (lower case)."""
    return {"mettle"} | {row.power.lower() for row in darkness_table().reductions.values() if row.power}


def morality_from(data: Mapping[str, Any], field: str = "morality") -> int | None:
    """A described character's Humanity or Path in MET Traits (``data["morality"]``, 0 to 5; ``None``
    when left out), which sets how long a torpor lasts (met-reference 5.2).

    Raises:
        RulesError: not a whole number from 0 to 5, naming ``field``.
    """
    value = data.get("morality")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
        raise RulesError(Phrase.message(N_("Give his Humanity or Path in MET Traits, 0 to 5.")), field=field)
    return value


def _flag(data: Mapping[str, Any], key: str, where: str) -> bool:
    return flag_of(data.get(key, False), f"{where}.{key}")


def side_from_dict(data: Any, where: str, category: Category, sep: str = ".",
                   celerity_default: int | None = None,
                   settings: ChronicleSettings | None = None,
                   contestant: Contestant | None = None) -> tuple[Side, SideScene | None]:
    """One side from JSON-like data (the module docstring says the keys): who he is
    tonight, what he does, and his own part of the scene (``None`` if not given).

    Args:
        where: the side's field name in errors (``challenger``, ``attackers[2]``).
        category: the challenge's category (his Traits count in it, or in his own ``category``).
        sep: between ``where`` and a key in errors (``challenger_bid``, ``attackers[2].bid``).
        celerity_default: the Celerity level active when not given (``None``: the powers
            listed count as active).
        contestant: the side's contestant as the challenge's own reader read it from the same data
            (:func:`one_on_one_from_dict`), not read again.

    Raises:
        RulesError: a missing or malformed value, naming the field.
    """
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(N_("Give the %(where)s as an object."), where=where), field=where)
    f = lambda key: f"{where}{sep}{key}"  # noqa: E731 - a field name, as the core names it
    base = {k: v for k, v in data.items() if k not in SIDE_EXTRAS}
    weapon_key = None
    if isinstance(base.get("weapon"), str):
        weapon_key = base.pop("weapon").strip()
    known_other = other_powers()
    powers = base.get("powers")
    extra_powers: set[str] = set()
    if isinstance(powers, (list, tuple)):
        challenge_values = {p.value for p in Power}
        extra_powers = {p.strip().lower() for p in powers if isinstance(p, str) and p.strip().lower() in known_other
                        and p.strip().lower() not in challenge_values}
        base["powers"] = [p for p in powers if not (isinstance(p, str) and p.strip().lower() in extra_powers)]
    con: Contestant = contestant if contestant is not None else contestant_from_dict(base, where, sep)
    body = body_from_dict(data.get("body"), f("body"), settings)
    attack = attack_from_dict(data["attack"], f("attack")) if data.get("attack") is not None else None
    celerity = data.get("celerity", celerity_default)
    if celerity is not None and (isinstance(celerity, bool) or not isinstance(celerity, int) or not 0 <= celerity <= 5):
        raise RulesError(Phrase.message(N_("Give the Celerity level active this turn, 0 to 5.")), field=f("celerity"))
    negatives = names_of(data.get("negative_traits", []), f("negative_traits"))
    calls = data.get("calls_negative", "")
    if not isinstance(calls, str):
        raise RulesError(Phrase.message(N_("Give the Negative Trait called.")), field=f("calls_negative"))
    qualities = data.get("qualities", [])
    if not isinstance(qualities, list) or not all(isinstance(q, str) and q.strip() for q in qualities):
        raise RulesError(Phrase.message(N_("Give a list of Merit and Flaw keys (ambidextrous, acute_sense...).")), field=f("qualities"))
    specs = data.get("specialisations", {})
    if not isinstance(specs, Mapping) or not all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) for v in specs.values()):
        raise RulesError(Phrase.message(N_("Give an object of Ability name to a list of specialisations.")), field=f("specialisations"))
    cat = (con.category or category).value
    disciplines = {}
    if body.fortitude:
        disciplines["Fortitude"] = body.fortitude
    if attack is not None and attack.potence:
        disciplines["Potence"] = attack.potence
    if celerity:
        disciplines["Celerity"] = celerity
    armor = (Worn(body.armor, body.armor_left),) if body.armor else ()
    if weapon_key is None and attack is not None and attack.weapon:
        weapon_key = attack.weapon
    track = body.track
    person = Person(
        name=con.name, creature=body.creature, generation=con.generation,
        traits={cat: con.held} if con.held else {}, lost={cat: con.lost_earlier} if con.lost_earlier else {},
        counts={cat: con.traits}, negative_traits={cat: negatives} if negatives else {},
        abilities=dict(con.abilities), merits=dict(con.merits),
        powers=frozenset({p.value for p in con.powers} | extra_powers), disciplines=disciplines,
        willpower=con.willpower,
        aggravated=track.aggravated if track else 0, lethal=track.lethal if track else 0,
        bashing=track.bashing if track else 0,
        health=con.health if "health" in base else (None if track is not None else Health.HEALTHY),
        armor=armor, weapon=weapon_key or "",
        qualities=frozenset(q.strip().lower() for q in qualities),
        specialisations={str(k): tuple(v) for k, v in specs.items()},
        morality=morality_from(data, f("morality")),
        acute_senses=con.acute_senses, frenzy=con.frenzy,
    )
    dark = con.darkness
    waive = bool(dark.waive_retest) or _flag(data, "waive_darkness", where)
    choice = Choice(
        bid=con.bid, lead=con.lead if "lead" in base else None, bid_category=con.category, card=con.weapon,
        declared=con.declared, bonuses=con.bonuses, penalties=con.penalties,
        specialisation=specialisation_of(data.get("specialisation", False), f("specialisation")),
        steps_moved=con.steps_moved, off_hand=con.off_hand,
        extra_bid=con.extra_bid, relent=con.relent, calls_negative=calls.strip(), celerity=celerity,
        waive_darkness=waive, waived_this_turn=dark.waived_this_turn,
        lethal_by_prowess=_flag(data, "lethal_by_prowess", where) or bool(attack and attack.lethal_by_prowess),
        head_shot=_flag(data, "head_shot", where) or bool(attack and attack.head_shot),
        bomb_announced=con.bomb_announced, both_hands=con.both_hands,
        ambidextrous=con.ambidextrous if "ambidextrous" in base else None,
        two_weapon=con.two_weapon if "two_weapon" in base else None,
        stake=bool(attack and attack.stake), high_caliber_test=attack.high_caliber_test if attack else None,
        staking_tests=attack.staking_tests if attack else (),
        ignore_wounds=_flag(data, "ignore_wounds", where), full_auto=bool(attack and attack.full_auto),
    )
    own = side_scene_from_dict(data["scene"], f("scene")) if data.get("scene") is not None else None
    if "darkness" in base and base["darkness"] is not None:
        legacy = SideScene(darkness=dark.level, darkness_source=dark.source,
                           sight={key: True for key in dark.reductions if key != "own_shroud"},
                           shroud_caster="own_shroud" in dark.reductions)
        if dark.level is DarknessLevel.NONE and not dark.reductions:
            legacy = SideScene(darkness=DarknessLevel.NONE)
        own = legacy if own is None else own
    return Side(person, choice), own


def scene_with(scene: Scene, sides: Mapping[str, SideScene | None]) -> Scene:
    """``scene`` with each side's own part (given beside the side) added; a side's own part
    wins over ``scene.sides``."""
    merged = dict(scene.sides)
    for name, own in sides.items():
        if own is not None:
            merged[name] = own
    return replace(scene, sides=merged)


def one_on_one_from_dict(data: Mapping[str, Any]) -> tuple[OneOnOne, Scene]:
    """A one-on-one challenge (or a static challenge or simple test) from JSON-like data:
    the keys of :func:`larp.rules.challenge.challenge_from_dict`, each side with the keys
    of the module docstring, and ``scene``.

    Raises:
        RulesError: a missing or malformed value, naming the field (``challenger_bid``,
            ``defender_body.armor``, ``scene.darkness``...).
    """
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(N_("The challenge must be an object.")), field="challenge")
    plain = {k: v for k, v in data.items() if k not in CHALLENGE_EXTRAS}
    sides_raw = {}
    for key in ("challenger", "defender"):
        raw = plain.get(key)
        if isinstance(raw, Mapping):
            sides_raw[key] = raw
            plain[key] = _plain_side(raw, ())
    if "action" not in plain and str(plain.get("category", "")).strip().lower() != Category.PHYSICAL.value:
        plain["action"] = "other"  # as for stored characters: only a Physical challenge is a strike by default
    challenge = challenge_from_dict(plain)  # the script's own checks, with their field names
    scene = scene_with_sense(scene_from_dict(data.get("scene")), challenge.sense)
    sides: dict[str, Side] = {}
    own: dict[str, SideScene | None] = {}
    for key, raw in sides_raw.items():
        # The contestant the challenge's reader made of the same keys (_plain_side leaves out what
        # side_from_dict leaves out), not read twice (issue 29: a light ruling).
        read = challenge.challenger if key == "challenger" else challenge.defender
        side, part = side_from_dict(raw, key, challenge.category, sep="_", contestant=read)
        sides[key] = side
        own[side.name] = part
    if challenge.defender is not None and sides["challenger"].name == sides["defender"].name:
        raise RulesError(Phrase.message(N_("The two sides need different names.")), field="defender_name")
    one = OneOnOne(
        category=challenge.category, challenger=sides["challenger"], defender=sides.get("defender"),
        kind=challenge.kind, action=challenge.action, defender_action=challenge.defender_action,
        difficulty=challenge.difficulty, needs_win=challenge.needs_win, needs_sight=challenge.needs_sight,
        surprised=challenge.surprised, negative_calls=challenge.negative_calls, tests=challenge.tests,
        at_range=challenge.at_range,
    )
    return one, scene_with(scene, own)



#: The keys of a mass challenge's sides that are the mass challenge's own, not the person's.
_TARGET_OWN = ("throw", "relents_to", "injures")
_ATTACKER_OWN = ("range", "throw", "tests", "strength")


def _plain_side(raw: Any, own_extras: tuple[str, ...]) -> Any:
    """A side with only the keys the engine's own reader knows (the person's extras left out)."""
    if not isinstance(raw, Mapping):
        return raw
    out = {k: v for k, v in raw.items() if k not in SIDE_EXTRAS or k in own_extras}
    if isinstance(out.get("weapon"), str):
        out.pop("weapon")
    if isinstance(out.get("powers"), list):
        extra = other_powers() - {p.value for p in Power}
        out["powers"] = [p for p in out["powers"] if not (isinstance(p, str) and p.strip().lower() in extra)]
    return out


def _engine_input(data: Mapping[str, Any], one: str, many: str, one_keeps: tuple[str, ...],
                  many_keeps: tuple[str, ...]) -> dict[str, Any]:
    """``data`` as the engine's own reader takes it: the top-level scene left out, the side ``one`` and
    each side of the list ``many`` with only the keys that reader knows (``*_keeps``: the extras it reads too)."""
    plain = {k: v for k, v in data.items() if k != "scene"}
    if isinstance(plain.get(one), Mapping):
        plain[one] = _plain_side(plain[one], one_keeps)
    if isinstance(plain.get(many), list):
        plain[many] = [_plain_side(side, many_keeps) for side in plain[many]]
    return plain


def _group_read(data: Any, where: str, not_object: str, read: Callable[..., Any],
                sides: tuple[str, str, tuple[str, ...], tuple[str, ...]], settings: ChronicleSettings | None):
    """A group challenge (a mass challenge, a shot into a group) read first by its engine's own reader
    ``read``, with that reader's checks and field names (``sides``: :func:`_engine_input`'s sides and the
    extra keys each keeps), and the top-level ``scene`` with the sense the challenge depends on.

    Raises:
        RulesError: ``not_object`` (marked with ``N_``) naming ``where`` when ``data`` is not an object; the
            reader's refusals.
    """
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(not_object), field=where)
    engine = read(_engine_input(data, *sides), settings)
    return engine, scene_with_sense(scene_from_dict(data.get("scene")), engine.sense)


def mass_challenge_call_from_dict(data: Mapping[str, Any], settings: ChronicleSettings | None = None):
    """A mass challenge from JSON-like data: the keys of
    :func:`larp.rules.mass_challenge.mass_challenge_from_dict`, each side also with the keys of
    the module docstring (``scene``, ``negative_traits``...), and a top-level ``scene``.

    Returns:
        The :class:`~larp.rules.rulings.mass_challenge.MassChallengeCall` and the :class:`~larp.rules.scene.Scene`.

    Raises:
        RulesError: a missing or malformed value, naming the field (``attackers[2].throw``...).
    """
    from larp.rules.mass_challenge import mass_challenge_from_dict
    from larp.rules.rulings.mass_challenge import MassChallengeCall, MassAttacker, MassTarget

    keeps = ("attack", "celerity", "body")
    mass, scene = _group_read(data, "mass", N_("The mass challenge must be an object."), mass_challenge_from_dict,
                              ("defender", "attackers", keeps, keeps), settings)
    own: dict[str, SideScene | None] = {}
    raw_d = {k: v for k, v in data["defender"].items() if k not in _TARGET_OWN}
    target_side, part = side_from_dict(raw_d, "defender", mass.category, ".", 0, settings)
    own[target_side.name] = part
    d = mass.defender
    target = MassTarget(target_side, d.throw, d.attack.action if d.attack is not None else "defend", d.injures)
    attackers = []
    for index, (raw, a) in enumerate(zip(data["attackers"], mass.attackers)):
        side, part = side_from_dict({k: v for k, v in raw.items() if k not in _ATTACKER_OWN}, f"attackers[{index}]",
                                    mass.category, ".", 0, settings)
        if a.attack.close_range:
            part = SideScene(**{**(part or SideScene()).__dict__, "range": RangeBand.CLOSE})
        own[side.name] = part
        attackers.append(MassAttacker(side, a.range, a.attack.action, a.throw, a.tests, a.strength,
                                     side.name in d.relents_to))
    return MassChallengeCall(target, tuple(attackers), mass.category), scene_with(scene, own)


def firing_into_groups_call_from_dict(data: Mapping[str, Any], settings: ChronicleSettings | None = None):
    """A missed shot into a group from JSON-like data: the keys of
    :func:`larp.rules.firing_into_groups.shot_into_group_from_dict`, each side also with the keys
    of the module docstring, and a top-level ``scene``.

    Returns:
        The :class:`~larp.rules.rulings.firing_into_groups.FiringIntoGroupsCall` and the :class:`~larp.rules.scene.Scene`.

    Raises:
        RulesError: a missing or malformed value, naming the field (``bystanders[1].throw``...).
    """
    from larp.rules.firing_into_groups import shot_into_group_from_dict
    from larp.rules.rulings.firing_into_groups import BystanderSide, FiringIntoGroupsCall

    shot, scene = _group_read(data, "shot", N_("The shot must be an object."), shot_into_group_from_dict,
                              ("firer", "bystanders", (), ("body",)), settings)
    own: dict[str, SideScene | None] = {}
    firer, part = side_from_dict(data["firer"], "firer", Category.PHYSICAL, ".", None, settings)
    firer = Side(replace(firer.person, weapon=shot.weapon), firer.choice)
    if shot.range is not None:  # how far the group is from the firer (a Spray needs distance)
        part = replace(part or SideScene(), range=shot.range)
    own[firer.name] = part
    people = []
    for index, (raw, b) in enumerate(zip(data["bystanders"], shot.bystanders)):
        side, part = side_from_dict({k: v for k, v in raw.items()
                                     if k not in ("throw", "firer_throw", "saw_it_coming", "tests")},
                                    f"bystanders[{index}]", Category.PHYSICAL, ".", None, settings)
        own[side.name] = part
        people.append(BystanderSide(side, b.throw, b.firer_throw, b.saw_it_coming, side.name in shot.excluded,
                                    b.tests))
    firing = FiringIntoGroupsCall(firer=firer, target=shot.target, bystanders=tuple(people), firer_throw=shot.firer_throw,
                    bursts=shot.bursts, careful_aim=shot.careful_aim, close_range=shot.close_range,
                    extra_traits=shot.extra_traits, excluded=shot.excluded,
                    deliberate_spray=shot.deliberate_spray)
    return firing, scene_with(scene, own)


#: A damage count of the described track that is not a whole number of at least 0, by type.
_AT_LEAST_NONE = {"aggravated": N_("Aggravated damage must be a whole number of at least 0."),
                  "lethal": N_("Lethal damage must be a whole number of at least 0."),
                  "bashing": N_("Bashing damage must be a whole number of at least 0.")}


def person_from_track(track: Any, fortitude: int, name: str = "The character", armor: Any = None,
                      armor_left: Any = None, powers: Any = None, settings: ChronicleSettings | None = None,
                      morality: int | None = None):
    """A person described by a health track (the stateless damage API): his kind, damage,
    condition and stake, Fortitude (Mettle's Healthy level at 2 when the track's levels are
    left out: the chronicle's track), the armor he wears, his Humanity or Path in MET Traits
    (``morality``, :func:`morality_from`; how long a torpor lasts).

    Raises:
        RulesError: a malformed track, armor or power, naming the field.
    """
    from larp.rules.scene import worn_from_data

    if track is None:
        track = {}
    if not isinstance(track, Mapping):
        raise RulesError(Phrase.message(N_("track must be an object.")), field="track")
    creature = str(track.get("creature") or "vampire")
    if creature not in ("vampire", "ghoul", "mortal"):
        raise RulesError(Phrase.message(N_("The creature is vampire, ghoul or mortal.")), field="track.creature")
    counts = {}
    for key in ("aggravated", "lethal", "bashing"):
        value = track.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(Phrase.message(_AT_LEAST_NONE[key]), field=f"track.{key}")
        counts[key] = value
    levels = track.get("levels")
    if levels is not None and (not isinstance(levels, list) or not all(isinstance(x, str) for x in levels)):
        raise RulesError(Phrase.message(N_("Give the track's levels as a list of names.")), field="track.levels")
    names = set()
    if powers is not None:
        if not isinstance(powers, list) or not all(isinstance(p, str) for p in powers):
            raise RulesError(Phrase.message(N_("Give a list of powers.")), field="powers")
        names = {p.strip().lower() for p in powers}
        unknown = sorted(names - other_powers() - {p.value for p in Power})
        if unknown:
            raise RulesError(Phrase.message(N_("Unknown power %(name)s."), name=repr(unknown[0])), field="powers")
    worn = worn_from_data(armor, "armor")
    if armor_left is not None:
        if not worn:
            raise RulesError(Phrase.message(N_("Give the armor whose levels are left.")), field="armor_left")
        worn = (Worn(worn[0].armor, armor_left),) + worn[1:]
        try:
            worn[0].levels_left()
        except RulesError as exc:
            raise RulesError(exc.message, field="armor_left") from None
    return Person(name=name, creature=creature, levels=tuple(levels) if levels else None, whole_track=bool(levels),
                  powers=frozenset(names), disciplines={"Fortitude": fortitude} if fortitude else {},
                  condition=str(track.get("condition") or "active"), staked=bool(track.get("staked", False)),
                  armor=worn, morality=morality, **counts)
