"""A missed shot into a group of stored characters (issue 4): the bystanders screen and the stateful API.

The narrator names the firer, his gun, the target he missed and the people
near the target closest first, with the signs and the firer's options (extra
Traits naming the bystanders they exclude, or careful aim); this module
builds the rules core's :class:`~larp.rules.firing_into_groups.StrayShot`
from the stored characters, picks the Traits risked, and either previews the
ruling or applies it in one transaction with ONE record (kind
``firing_into_group``) naming every character.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from larp.db import db
from larp.models import Chronicle, GameSession, Ruling, User
from larp.rules.challenge import Category, Outcome, RandomSource, test_calls_from_list
from larp.rules.explain import RulesError
from larp.rules.firing_into_groups import (
    Bystander,
    Fire,
    StrayRuling,
    StrayShot,
    fire_of,
    firer_bid_count,
    rule_stray_shot,
)
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.services.challenges import choose_bid
from larp.services.characters import get_character
from larp.services.chronicles import chronicle_settings, current_game_session, open_game_session
from larp.services.health import retrying
from larp.services.mass_combat import (
    Fighter,
    FighterRequest,
    apply_to_characters,
    body_for,
    contestant_for,
    draw_throw,
    flag,
    load_fighter,
    suitable_abilities,
)
from larp.services.records import lock_characters, record_ruling


@dataclass(frozen=True)
class BystanderRequest:
    """One person near the target, as the narrator entered him.

    Attributes:
        character_id: the stored character.
        throw: his sign (``random`` draws one).
        firer_throw: single shots: the firer's sign in this person's test.
        saw_it_coming: he could see the attack coming (Dodge retest allowed).
        excluded: the firer paid an extra Trait to keep him out of harm.
        bid: his lead Trait (``""``: the one he has most of).
        tests: later tests of his pair (Dodge, Firearms retests), JSON-like dicts.
    """

    character_id: Any
    throw: str = ""
    firer_throw: str = ""
    saw_it_coming: bool = False
    excluded: bool = False
    bid: str = ""
    tests: tuple[dict, ...] = ()


@dataclass(frozen=True)
class StrayRequest:
    """A missed shot as the narrator (or the stateful API) describes it.

    Attributes:
        firer: the firer (``weapon`` his gun; ``throw`` his one sign against a group).
        target_id: the character he missed.
        bystanders: the people near the target, closest first.
        bursts: an automatic weapon fires bursts (``False``: one shot at a time).
        careful_aim: he took careful aim (every other round).
        close_range: within five feet (Full-Auto).
    """

    firer: FighterRequest
    target_id: Any
    bystanders: tuple[BystanderRequest, ...]
    bursts: bool = True
    careful_aim: bool = False
    close_range: bool = False


@dataclass
class Volley:
    """A missed shot ruled on stored characters (not yet applied, or applied).

    Attributes:
        shot: the rules core's input.
        ruling: the core's ruling.
        firer, target, bystanders: the loaded characters.
        needs_decision: a bystander or the firer may still retest.
        record: the stored ruling once applied.
    """

    shot: StrayShot
    ruling: StrayRuling
    firer: Fighter
    target: Any
    bystanders: list[Fighter]
    throws: dict[str, dict[str, str]] = field(default_factory=dict)
    needs_decision: bool = False
    record: Ruling | None = None

    def retests(self, name: str) -> list[tuple[str, str]]:
        """The retests the side behind in ``name``'s test may call now, as ``(by, source)``."""
        result = self.ruling.result(name)
        options = result.options
        if options is None or not result.tested or options.finished:
            return []
        behind = {Outcome.CHALLENGER: [Outcome.DEFENDER], Outcome.DEFENDER: [Outcome.CHALLENGER]}.get(
            result.outcome, [Outcome.CHALLENGER, Outcome.DEFENDER])
        out = []
        for side in behind:
            suitable = suitable_abilities(self.shot.category, self.shot.weapon if side is Outcome.CHALLENGER else "",
                                          defending=side is Outcome.DEFENDER)
            out += [(side.value, source) for source in options.side(side).retests
                    if not source.startswith("ability:") or suitable is None or source[8:].lower() in suitable]
        return out


def _build(chronicle: Chronicle, request: StrayRequest, game_session: GameSession | None,
           settings: ChronicleSettings, rng: RandomSource) -> Volley:
    category = Category.PHYSICAL
    firer = load_fighter(chronicle, request.firer, "firer", game_session, settings)
    if not request.firer.weapon:
        raise ServiceError("Choose the gun that fired.", field="firer_weapon")
    if request.target_id in (None, ""):
        raise ServiceError("Choose the target the shot missed.", field="target")
    target = get_character(chronicle, request.target_id, "target")
    if target.id == firer.character.id:
        raise ServiceError(f"{target.name} cannot be his own target.", field="target")
    if not request.bystanders:
        raise ServiceError("Add the people near the target, closest first.", field="bystanders")
    people: list[Fighter] = []
    seen: set[int] = set()
    for index, b in enumerate(request.bystanders):
        where = f"bystanders[{index}]"
        character = get_character(chronicle, b.character_id, where)
        if character.id in seen:
            raise ServiceError(f"{character.name} is already listed as a bystander.", field=where)
        if character.id == target.id:
            raise ServiceError(f"{character.name} is the target, not a bystander.", field=where)
        if character.id == firer.character.id:
            raise ServiceError(f"{character.name} fired the shot and cannot be a bystander to it.", field=where)
        seen.add(character.id)
        people.append(load_fighter(chronicle, FighterRequest(b.character_id, bid=b.bid), where, game_session,
                                   settings))
    try:
        fire = fire_of(request.firer.weapon, request.bursts)
    except RulesError:
        raise ServiceError(f"There is no gun {request.firer.weapon!r} in the armory.", field="firer_weapon") from None
    single = fire is Fire.SINGLE
    throws: dict[str, dict[str, str]] = {}
    bystanders = []
    for index, (f, b) in enumerate(zip(people, request.bystanders)):
        prefix = f"bystanders[{index}]."
        drawn: dict[str, str] = {}
        at_risk = not (single and (request.careful_aim or b.excluded))
        throw = firer_throw = None
        if at_risk:
            throw, _random = draw_throw(b.throw, prefix + "throw", rng)
            drawn["throw"] = throw.value
            if single:
                firer_throw, _random = draw_throw(b.firer_throw, prefix + "firer_throw", rng)
                drawn["firer_throw"] = firer_throw.value
        throws[str(f.character.id)] = drawn
        try:
            tests = test_calls_from_list(list(b.tests), prefix + "tests")
        except RulesError as exc:
            raise ServiceError(exc.message, field=exc.field) from None
        bystanders.append(Bystander(side=contestant_for(f, category, prefix, settings), throw=throw,
                                    firer_throw=firer_throw, saw_it_coming=b.saw_it_coming, tests=tests,
                                    body=body_for(f)))
    group_throw = None
    if not single:
        group_throw, _rand = draw_throw(request.firer.throw, "firer_throw", rng)
        throws["firer"] = {"throw": group_throw.value}
    excluded = tuple(f.character.name for f, b in zip(people, request.bystanders) if b.excluded)
    firer_con = contestant_for(firer, category, "firer_", settings)
    lead = firer_con.bid[0] if firer_con.bid else ""
    shot = StrayShot(firer=replace(firer_con, bid=()), weapon=request.firer.weapon, target=target.name,
                     bystanders=tuple(bystanders), firer_throw=group_throw, bursts=request.bursts,
                     excluded=excluded, careful_aim=request.careful_aim, close_range=request.close_range)
    try:
        # One extra Trait per bystander excluded went with the missed shot; the tests take the rest.
        extra = choose_bid(firer.state, category.value, lead, len(excluded)) if excluded and lead else ()
        if len(extra) < len(excluded):
            raise ServiceError(f"{firer.character.name} has only {len(extra)} Physical Traits left: not enough to "
                               f"pay one extra Trait for each of {len(excluded)} bystanders.", field="excluded")
        count = firer_bid_count(replace(shot, extra_traits=extra), settings)
        chosen = choose_bid(firer.state, category.value, lead, count + len(excluded)) if lead else ()
        shot = replace(shot, firer=replace(firer_con, bid=chosen[:count]), extra_traits=chosen[count:])
        ruling = rule_stray_shot(shot, settings, rng)
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    volley = Volley(shot, ruling, firer, target, people, throws)
    volley.needs_decision = any(volley.retests(f.character.name) for f in people)
    return volley


def preview_stray_shot(chronicle: Chronicle, request: StrayRequest, rng: RandomSource) -> Volley:
    """Rule on the missed shot without writing anything.

    Raises:
        ServiceError: as :func:`run_stray_shot`.
    """
    return _build(chronicle, request, open_game_session(chronicle), chronicle_settings(chronicle), rng)


def run_stray_shot(chronicle: Chronicle, narrator: User | None, request: StrayRequest, rng: RandomSource,
                   request_token: str | None = None) -> Volley:
    """Rule on a missed shot into a group of stored characters and apply it, in one transaction.

    Rules: :func:`larp.rules.firing_into_groups.rule_stray_shot` (002 "Firing Guns into Groups
    of People"). One record of kind ``firing_into_group`` with every character as a participant
    (``firer``, ``missed target``, ``bystander``); Traits lost (the extra Traits among them),
    Dodge and Firearms levels expended and the bystanders' tracks are written. Retried on a
    conflicting change. ``request_token``: the form's one-time token (never recorded twice).

    Raises:
        ServiceError: 404 unknown character; 409 no open game session or a character changed
            meanwhile; 422 anything the rules refuse (a bystander twice, excluded bystanders
            not near the target, extra Traits with a shotgun...), naming the field.
    """
    settings = chronicle_settings(chronicle)
    return retrying(lambda: _apply(chronicle, narrator, request, rng, settings, request_token))


def _apply(chronicle: Chronicle, narrator: User | None, request: StrayRequest, rng: RandomSource,
           settings: ChronicleSettings, request_token: str | None = None) -> Volley:
    with db.atomic():
        # Check-then-write: lock the firer, the target and the bystanders before reading them.
        lock_characters([request.firer.character_id, request.target_id, *(b.character_id for b in request.bystanders)])
        game_session = current_game_session(chronicle)
        volley = _build(chronicle, request, game_session, settings, rng)
        ruling, shot = volley.ruling, volley.shot
        roles = [(volley.firer.character, "firer"), (volley.target, "missed target")]
        roles += [(f.character, "bystander") for f in volley.bystanders]
        inputs = {
            "firer": {"id": volley.firer.character.id, "name": volley.firer.character.name,
                      "bid": list(shot.firer.bid), "traits": shot.firer.traits},
            "weapon": shot.weapon, "fire": ruling.fire.value, "target": {"id": volley.target.id,
                                                                          "name": volley.target.name},
            "bystanders": [{"id": f.character.id, "name": f.character.name, "bid": list(b.side.bid),
                            "saw_it_coming": b.saw_it_coming, "throws": volley.throws.get(str(f.character.id), {}),
                            "tests": list(r.tests)}
                           for f, b, r in zip(volley.bystanders, shot.bystanders, request.bystanders)],
            "firer_throw": shot.firer_throw.value if shot.firer_throw else None,
            "extra_traits": list(shot.extra_traits), "excluded": list(shot.excluded),
            "careful_aim": shot.careful_aim, "bursts": shot.bursts,
        }
        record = record_ruling(chronicle, narrator, "firing_into_group", ruling.summary, ruling.steps, roles,
                               request_token=request_token,
                               game_session=game_session, inputs=inputs, outcome=ruling.to_dict())
        apply_to_characters(game_session, record, shot.category.value, [volley.firer, *volley.bystanders],
                            ruling.traits_lost, ruling.spent, ruling.tracks)
        volley.record = record
        return volley


def stray_request_from_json(data: Mapping[str, Any]) -> StrayRequest:
    """The stateful API's missed shot between stored characters.

    ``{"firer": {"character_id": 9, "weapon": "pistol"}, "target_id": 2,
    "bystanders": [{"character_id": 7, "throw": "paper", "firer_throw": "rock"}]}``
    plus the optional fields of :class:`StrayRequest` and :class:`BystanderRequest`.

    Raises:
        ServiceError: 422 naming a missing or malformed field.
    """
    from larp.services.mass_combat import fighter_from_mapping

    if not isinstance(data.get("firer"), Mapping):
        raise ServiceError("Give the firer as an object with character_id and weapon.", field="firer")
    raw = data.get("bystanders")
    if not isinstance(raw, list) or not raw:
        raise ServiceError("Give the people near the target as a list, closest first.", field="bystanders")
    bystanders = []
    known = set(BystanderRequest.__dataclass_fields__)
    for index, b in enumerate(raw):
        where = f"bystanders[{index}]"
        if not isinstance(b, Mapping):
            raise ServiceError("Each bystander is an object with character_id.", field=where)
        unknown = sorted(set(b) - known)
        if unknown:
            raise ServiceError(f"Unknown field {unknown[0]!r}.", field=f"{where}.{unknown[0]}")
        tests = b.get("tests", [])
        if not isinstance(tests, list) or not all(isinstance(t, Mapping) for t in tests):
            raise ServiceError("Give the later tests as a list of objects.", field=f"{where}.tests")
        bystanders.append(BystanderRequest(
            character_id=b.get("character_id"), throw=str(b.get("throw") or ""),
            firer_throw=str(b.get("firer_throw") or ""), saw_it_coming=flag(b.get("saw_it_coming")),
            excluded=flag(b.get("excluded")), bid=str(b.get("bid") or "").strip(),
            tests=tuple(dict(t) for t in tests)))
    return StrayRequest(
        firer=fighter_from_mapping(data["firer"], "firer"), target_id=data.get("target_id"),
        bystanders=tuple(bystanders), bursts=data.get("bursts", True) is not False,
        careful_aim=flag(data.get("careful_aim")), close_range=flag(data.get("close_range")),
    )
