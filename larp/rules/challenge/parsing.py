"""A challenge script as JSON-like data, in and out (the stateless API's input):
:func:`challenge_from_dict`, :func:`contestant_from_dict`, :func:`test_calls_from_list`,
:func:`challenge_to_dict`.

Part of :mod:`larp.rules.challenge`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import MISSING, fields, is_dataclass
from enum import Enum
from functools import lru_cache
from collections.abc import Mapping
from typing import Any

from larp.rules.challenge.script import Challenge, Contestant, Modifier, NegativeCall, TestCall, Weapon
from larp.rules.challenge.types import SIDES, Call, Category, Health, Kind, Lead, Outcome, Power, Throw, parse_throw
from larp.rules.darkness import Darkness, DarknessLevel, DarknessSource
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.numbers import REQUIRED, enum_value, whole_number
from larp.rules.senses import sense_named, senses_named

#: Fields of the core's types that the JSON readers do not read (none since issue 30's wiring: the sense a
#: challenge depends on, Acute Sense's senses, the Ability of a specialisation, the frenzy a side is in and
#: the sides beyond reach are read and documented by the API). Kept so that an input the core gains before
#: the API documents it is refused as unknown, never ignored.
NOT_READ_YET: dict[type, frozenset[str]] = {}

#: Fields written out only when they differ from their default (issue 30's inputs), so that a challenge
#: written before them keeps its shape (:func:`challenge_to_dict`).
SHOWN_WHEN_SET: dict[type, frozenset[str]] = {
    Challenge: frozenset({"sense", "at_range"}),
    Contestant: frozenset({"acute_senses", "specialisation", "frenzy"}),
}

#: The conditions a side may be in after a Virtue Test (:mod:`larp.rules.frenzy`; ``""``: neither).
FRENZY_STATES = ("", "frenzy", "rotschreck")

#: A bonus or penalty Trait as the API writes it (JSON keys, named in a refusal as they are).
MODIFIER_SHAPE = "{source, traits}"


def _default(f: Any) -> Any:
    """A dataclass field's default value (its factory's product when it has one)."""
    return f.default_factory() if f.default_factory is not MISSING else f.default


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        unread = SHOWN_WHEN_SET.get(type(value), frozenset())
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)
                if f.name not in unread or getattr(value, f.name) != _default(f)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (frozenset, set)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def challenge_to_dict(challenge: Challenge) -> dict[str, Any]:
    """The challenge script as JSON-ready data; :func:`challenge_from_dict` reads it back (the
    script of seed 002 "Challenges": setup and tests)."""
    return _plain(challenge)


def refuse_unknown(data: Mapping[str, Any], allowed: Any, where: str = "", sep: str = "_") -> None:
    """Refuse a key the core's type does not take, so that a typo is never silently ignored (the one check of
    the stateless readers: the challenge's, the mass challenge's and the stray shot's).

    Args:
        data: the JSON object read.
        allowed: the keys it may give.
        where: its field name in errors (``""`` for the whole input); ``sep`` goes between it and the key.

    Raises:
        RulesError: naming the first unknown key (``<where><sep><key>``).
    """
    unknown = sorted(set(data).difference(allowed))
    if unknown:
        raise RulesError(Phrase.message(N_("Unknown field %(name)s."), name=repr(unknown[0])),
                         field=f"{where}{sep}{unknown[0]}" if where else unknown[0])


def _known(data: Any, cls: type, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        if not where:
            raise RulesError(Phrase.message(N_("The challenge must be an object.")), field="challenge")
        raise RulesError(Phrase.message(N_("%(where)s must be an object."), where=where), field=where)
    refuse_unknown(data, _readable(cls), where)
    return data


@lru_cache(maxsize=None)
def _readable(cls: type) -> frozenset[str]:
    """The keys a reader of ``cls`` takes: its fields, but those not read yet (the same for every call)."""
    return frozenset(f.name for f in fields(cls)) - NOT_READ_YET.get(cls, frozenset())


_enum = enum_value  # the one reader of a rules enum (larp.rules.numbers)


def _int(value: Any, where: str, optional: bool = False) -> int | None:
    return whole_number(value, where, low=0, default=None if optional else REQUIRED, text=False)


def flag_of(value: Any, where: str) -> bool:
    """A JSON ``true`` or ``false``.

    Raises:
        RulesError: anything else, naming ``where``.
    """
    if not isinstance(value, bool):
        raise RulesError(Phrase.message(N_("Give true or false.")), field=where)
    return value


def text_of(value: Any, where: str) -> str:
    """A JSON text, trimmed.

    Raises:
        RulesError: anything else, naming ``where``.
    """
    if not isinstance(value, str):
        raise RulesError(Phrase.message(N_("Give a text.")), field=where)
    return value.strip()


def names_of(value: Any, where: str) -> tuple[str, ...]:
    """A JSON list of names (Traits, bystanders...), each trimmed.

    Raises:
        RulesError: not a list of texts that are not blank, naming ``where``.
    """
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RulesError(Phrase.message(N_("Give a list of names.")), field=where)
    return tuple(v.strip() for v in value)


def _levels(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesError(Phrase.message(N_("Give an object of name to number.")), field=where)
    return {str(k): _int(v, where) for k, v in value.items()}


def throw_at(data: Mapping[str, Any], key: str, where: str) -> Throw | None:
    """The throw at ``key`` of ``data`` (``"rock"``...: :func:`parse_throw`), ``None`` when left out or ``null``
    (drawn at random by the ruling).

    Raises:
        RulesError: not a throw, naming ``where``.
    """
    return None if data.get(key) is None else parse_throw(data[key], where)


def specialisation_of(value: Any, where: str) -> str | bool:
    """A side's specialisation as JSON gives it: ``true`` (the sheet's specialised Ability, or the
    narrator's word), ``false`` or ``""`` (none), or the Ability's name (LotNR Abilities,
    met-reference 1.3: the bonus Trait needs a level of that Ability left tonight).

    Raises:
        RulesError: neither true, false nor a text, naming ``where``.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip()
    raise RulesError(Phrase.message(N_("Give true, false or the Ability's name.")), field=where)


def frenzy_of(value: Any, where: str) -> str:
    """The condition a side is in after a Virtue Test: ``"frenzy"``, ``"rotschreck"`` or ``""``
    (neither; ``null`` too) (LotNR Frenzy; :mod:`larp.rules.frenzy`).

    Raises:
        RulesError: any other value, naming ``where``.
    """
    text = "" if value is None else value.strip().lower() if isinstance(value, str) else None
    if text not in FRENZY_STATES:
        raise RulesError(Phrase.message(N_("Give frenzy, rotschreck or \"\" (neither).")), field=where)
    return text


def _side_from_dict(data: Any, side: str, sep: str = "_") -> Contestant:
    data = _known(data, Contestant, side)
    f = lambda key: f"{side}{sep}{key}"  # noqa: E731 - a field name, as the core names it
    held = names_of(data.get("held", []), f("held"))
    lost = names_of(data.get("lost_earlier", []), f("lost_earlier"))
    if "traits" in data:
        traits = _int(data["traits"], f("traits"))
    elif held:
        traits = sum((Counter(held) - Counter(lost)).values())
    else:
        raise RulesError(Phrase.message(N_("Give the %(side)s's current Traits (or the Traits held)."), side=side),
                         field=f("traits"))
    kwargs: dict[str, Any] = {"name": text_of(data.get("name", ""), f("name")), "traits": traits,
                              "bid": names_of(data.get("bid", []), f("bid")), "held": held, "lost_earlier": lost}
    if "declared" in data:
        kwargs["declared"] = _int(data["declared"], f("declared"), optional=True)
    for key in ("bonuses", "penalties"):
        mods = data.get(key, [])
        if not isinstance(mods, list):
            raise RulesError(Phrase.message(N_("Give a list of %(shape)s."), shape=MODIFIER_SHAPE), field=f(key))
        kwargs[key] = tuple(
            Modifier(text_of(_known(m, Modifier, f(key)).get("source", ""), f(key)), _int(m.get("traits"), f(key)))
            for m in mods
        )
    if data.get("weapon") is not None:
        w = _known(data["weapon"], Weapon, f("weapon"))
        kwargs["weapon"] = Weapon(text_of(w.get("name", ""), f("weapon")), _int(w.get("bonus", 0), f("weapon")),
                                  text_of(w.get("damage_type", ""), f("weapon")), _int(w.get("levels"), f("weapon")),
                                  ranged=flag_of(w.get("ranged", False), f("weapon")),
                                  specials=names_of(w.get("specials", []), f("weapon")),
                                  negative_traits=names_of(w.get("negative_traits", []), f("weapon")))
    if "health" in data:
        kwargs["health"] = _enum(Health, data["health"], f("health"))
    if "powers" in data:
        if not isinstance(data["powers"], (list, tuple)):
            raise RulesError(Phrase.message(N_("Give a list of powers.")), field=f("powers"))
        kwargs["powers"] = frozenset(_enum(Power, p, f("powers")) for p in data["powers"])
    if "lead" in data:
        kwargs["lead"] = _enum(Lead, data["lead"], f("lead"))
    if data.get("category") is not None:
        kwargs["category"] = _enum(Category, data["category"], f("category"))
    for key in ("abilities", "merits"):
        if key in data:
            kwargs[key] = _levels(data[key], f(key))
    for key in ("willpower", "generation", "steps_moved", "extra_bid", "celerity"):
        if key in data:
            kwargs[key] = _int(data[key], f(key), optional=key == "generation")
    for key in ("off_hand", "relent", "ambidextrous", "two_weapon", "both_hands", "bomb_announced", "risks_no_trait"):
        if key in data:
            kwargs[key] = flag_of(data[key], f(key))
    if "acute_senses" in data:
        kwargs["acute_senses"] = senses_named(data["acute_senses"], f("acute_senses"))
    if "specialisation" in data:
        kwargs["specialisation"] = specialisation_of(data["specialisation"], f("specialisation"))
    if "frenzy" in data:
        kwargs["frenzy"] = frenzy_of(data["frenzy"], f("frenzy"))
    if data.get("darkness") is not None:
        dk = _known(data["darkness"], Darkness, f("darkness"))
        kwargs["darkness"] = Darkness(
            level=_enum(DarknessLevel, dk.get("level", "none"), f("darkness")),
            source=_enum(DarknessSource, dk.get("source", "natural"), f("darkness")),
            reductions=names_of(dk.get("reductions", []), f("darkness")),
            waive_retest=text_of(dk.get("waive_retest", ""), f("darkness")),
            waived_this_turn=flag_of(dk.get("waived_this_turn", False), f("darkness")),
        )
    return Contestant(**kwargs)


def _by(value: Any, where: str) -> Outcome | None:
    if value is None:
        return None
    side = _enum(Outcome, value, where)
    if side not in SIDES:
        raise RulesError(Phrase.message(N_("Give challenger or defender.")), field=where)
    return side


def challenge_from_dict(data: Mapping[str, Any]) -> Challenge:
    """Read a challenge script from JSON-like data (the stateless API's input).

    The keys are the dataclass fields (:class:`Challenge`, :class:`Contestant`,
    :class:`TestCall`, :class:`NegativeCall`, :class:`Darkness`, :class:`Modifier`,
    :class:`Weapon`); enums are their values (``"physical"``, ``"rock"``...).
    A side may give ``held`` and ``lost_earlier`` and leave out ``traits``.
    ``action`` defaults to ``"strike"`` in a contested challenge and ``"other"``
    otherwise. The rules themselves are checked by :func:`rule_challenge`.
    A weapon card may say ``"ranged": true`` (fired or thrown: no Might), its ``specials``
    and ``negative_traits``; a side ``bomb_announced`` (the Bomb exists only when announced
    before the challenge, LotNR Vigor), ``ambidextrous``, ``two_weapon``, ``both_hands``
    (met-reference 3.8); ``sense``, the sense the challenge depends on (Acute Sense, met-reference
    1.3), ``at_range``, the sides beyond reach of each other (no Might), and a side's
    ``acute_senses``, ``specialisation`` (true or the Ability's name) and ``frenzy``. An example (met-reference T5: a Firearms retest)::

        {"category": "physical", "action": "weapon",
         "challenger": {"name": "Daron", "traits": 7, "bid": ["Wily"], "category": "mental",
                        "weapon": {"name": "pistol", "bonus": 2, "damage_type": "lethal", "levels": 2},
                        "abilities": {"Firearms": 2}},
         "defender": {"name": "Michael", "traits": 8, "bid": ["Quick"]},
         "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
                   {"call": "retest", "by": "challenger", "source": "ability:Firearms",
                    "challenger_throw": "scissors", "defender_throw": "paper"}]}

    Raises:
        RulesError: a missing or malformed value, naming the field
            (``category``, ``challenger_bid``, ``tests[1].challenger_throw``...).
    """
    data = _known(data, Challenge, "")
    if "category" not in data:
        raise RulesError(Phrase.message(N_("Give the challenge's category.")), field="category")
    kind = _enum(Kind, data.get("kind", "contested"), "kind")
    if data.get("challenger") is None:
        raise RulesError(Phrase.message(N_("Give the challenger.")), field="challenger")
    calls = test_calls_from_list(data.get("tests", []), "tests")
    negatives = data.get("negative_calls", [])
    if not isinstance(negatives, list):
        raise RulesError(Phrase.message(N_("Give a list of Negative Trait calls.")), field="negative_calls")
    calls_neg = []
    for index, raw in enumerate(negatives):
        where = f"negative_calls[{index}]"
        n = _known(raw, NegativeCall, where)
        by = _by(n.get("by"), where)
        if by is None:
            raise RulesError(Phrase.message(N_("Say who calls the Negative Trait.")), field=where)
        calls_neg.append(NegativeCall(by, text_of(n.get("trait", ""), where), flag_of(n.get("correct"), where)))
    return Challenge(
        category=_enum(Category, data["category"], "category"),
        challenger=_side_from_dict(data["challenger"], "challenger"),
        defender=None if data.get("defender") is None else _side_from_dict(data["defender"], "defender"),
        action=text_of(data.get("action", "strike" if kind is Kind.CONTESTED else "other"), "action"),
        kind=kind,
        defender_action=text_of(data.get("defender_action", "defend"), "defender_action"),
        difficulty=_int(data.get("difficulty"), "difficulty", optional=True),
        needs_win=flag_of(data.get("needs_win", False), "needs_win"),
        needs_sight=flag_of(data.get("needs_sight", True), "needs_sight"),
        surprised=flag_of(data.get("surprised", False), "surprised"),
        sense=sense_named(data.get("sense"), "sense"),
        at_range=flag_of(data.get("at_range", False), "at_range"),
        negative_calls=tuple(calls_neg),
        tests=tuple(calls),
    )


def contestant_from_dict(data: Mapping[str, Any], where: str, sep: str = ".") -> Contestant:
    """Read one side from JSON-like data (the keys of :class:`Contestant`).

    Used by the mass challenge and the shot into a group (:mod:`larp.rules.mass_challenge`,
    :mod:`larp.rules.firing_into_groups`), whose sides are contestants too.
    A side may give ``held`` and ``lost_earlier`` and leave out ``traits`` (LotNR
    Initial Bid, met-reference 1.1).

    Raises:
        RulesError: a missing or malformed value; ``field`` is ``<where><sep><key>``
            (``attackers[0].bid``; the one-on-one API's ``challenger_bid`` with ``sep`` ``"_"``).
    """
    return _side_from_dict(data, where, sep)


def test_calls_from_list(data: Any, where: str) -> tuple[TestCall, ...]:
    """Read a list of tests (the keys of :class:`TestCall`; throws as ``"rock"``...; LotNR The
    Test, Overbidding, Retests, met-reference 1.2, 1.5, 2.1).

    Raises:
        RulesError: not a list, or a malformed test; ``field`` is ``<where>[i].<key>``.
    """
    if not isinstance(data, list):
        raise RulesError(Phrase.message(N_("Give a list of tests.")), field=where)
    calls = []
    for index, raw in enumerate(data):
        at = f"{where}[{index}]"
        t = _known(raw, TestCall, at)
        throws = {key: throw_at(t, key, f"{at}.{key}") for key in ("challenger_throw", "defender_throw")}
        calls.append(TestCall(
            call=_enum(Call, t.get("call", "test"), f"{at}.call"),
            by=_by(t.get("by"), f"{at}.by"),
            source=text_of(t.get("source", ""), f"{at}.source"),
            cancel=text_of(t.get("cancel", ""), f"{at}.cancel"),
            trait=text_of(t.get("trait", ""), f"{at}.trait"),
            **throws,
        ))
    return tuple(calls)


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["challenge_from_dict", "challenge_to_dict", "contestant_from_dict", "test_calls_from_list"]
