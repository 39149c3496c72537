"""What the narrator's challenge form and the stored API's combat bodies ask, read by the one input layer
(:mod:`larp.web.inputs`) into the services' request types (issue 29 item 4): a one-on-one challenge
(:class:`~larp.services.challenge_requests.ChallengeRequest`, from the challenge screen's form or the stored
API), a mass challenge (:class:`~larp.services.mass_challenge.MassRequest`) and a stray shot
(:class:`~larp.services.firing_into_groups.FiringIntoGroupsRequest`) from the stored API. The combat board's
and the stray-shot screen's forms are read beside their views (:mod:`larp.web.people_form`).

Reading touches no database. Bad input is refused with a ``ServiceError`` (422) naming the field; whether a
character is in the chronicle, and the rules themselves, are the services' and the core's to say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from larp.rules.challenge import Category
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.services.challenge_requests import RANDOM, ChallengeRequest, SideRequest
from larp.services.firing_into_groups import BystanderRequest, FiringIntoGroupsRequest
from larp.services.mass_challenge import FighterRequest, MassRequest
from larp.services.scenes import SCENE_KEYS, side_scene
from larp.services.table_results import DAMAGE_TESTS, throws_from
from larp.web.inputs import only, said, whole, yes

#: A stored fighter's (or bystander's) own part of the scene, given beside him in the stored API.
FIGHTER_SCENE_KEYS = ("darkness", "darkness_source", "armor", "armor_left", "cover", "sight_off", "shroud_caster",
                      "scene")

#: The flags of a side of a one-on-one challenge (ticks of the form, true/false of the stored API).
SIDE_FLAGS = ("bomb_announced", "both_hands", "off_hand", "relent", "celerity_active", "waive_darkness",
              "lethal_by_prowess", "head_shot", "shroud_caster", "stake", "ignore_wounds", "full_auto")

#: The trait categories a form's bid may name before its Trait (``"mental:Clever"``).
BID_CATEGORIES = (Category.PHYSICAL.value, Category.SOCIAL.value, Category.MENTAL.value)


def _refuse(message: str, field: str) -> ServiceError:
    return ServiceError(Phrase.message(message), field=field)


def _object(data: Mapping[str, Any], key: str, message: str) -> Mapping[str, Any]:
    """The object at ``key`` of a body (a side: the challenger, the target, the firer...)."""
    if not isinstance(data.get(key), Mapping):
        raise _refuse(message, key)
    return data[key]


def _several(data: Mapping[str, Any], key: str, message: str) -> list:
    """The list at ``key`` of a body, one item at least (the tests, the attackers, the bystanders)."""
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise _refuse(message, key)
    return value


def specialisation(value: Any) -> bool | str:
    """A side's specialisation as a form or the stored API gives it: a tick (``on``, ``true``...: the sheet's
    specialised Ability), nothing (none), or the Ability's name (LotNR Abilities, met-reference 1.3)."""
    if isinstance(value, bool) or value is None:
        return bool(value)
    text = str(value).strip()
    if text.lower() in ("", "0", "false", "off", "no"):
        return False
    return True if text.lower() in ("1", "true", "on", "yes") else text


def side_request(values: Mapping[str, Any], prefix: str = "") -> SideRequest:
    """One side of a one-on-one challenge from the form's fields (``prefix`` ``"challenger_"``; the character
    picked is the field named by the prefix) or a stored API side (no prefix: its ``character_id``).

    Raises:
        ServiceError: 422 naming the field of a malformed number (situation -3 to 3 Traits, steps 0 to 3,
            cover 0 to 6 Traits) or scene.
    """
    weapon = said(values, prefix + "weapon")
    bid = said(values, prefix + "bid")
    bid_category = said(values, prefix + "bid_category").lower()
    kind, sep, name = bid.partition(":")
    if sep and kind.strip().lower() in BID_CATEGORIES:
        bid_category, bid = kind.strip().lower(), name.strip()
    return SideRequest(
        character_id=values.get(prefix.rstrip("_")) if prefix else values.get("character_id"),
        bid=bid,
        bid_category=bid_category,
        situation=whole(values, prefix + "situation", 0, low=-3, high=3),
        weapon=weapon,
        lead=said(values, prefix + "lead").lower(),
        steps_moved=whole(values, prefix + "steps_moved", 0, low=0, high=3),
        cover=whole(values, prefix + "cover", 0, low=0, high=6),
        specialisation=specialisation(values.get(prefix + "specialisation", False)),
        calls_negative=said(values, prefix + "calls_negative"),
        damage_throws={test: pair for test in DAMAGE_TESTS
                       if (pair := throws_from({k: values.get(prefix + k) for k in (f"{test}_player", f"{test}_narrator")},
                                               test)) is not None},
        scene=side_scene(lambda key: values.get(prefix + key), prefix, weapon=weapon),
        **{key: yes(values, prefix + key) for key in SIDE_FLAGS},
    )


def _default_action(kind: str, category: Any) -> str:
    """A contested Physical challenge is a strike unless the narrator says otherwise; anything else "other"."""
    return "strike" if kind == "contested" and str(category or "").strip().lower() == Category.PHYSICAL.value else "other"


def request_from_form(form: Mapping[str, Any], script: list[dict] | None = None) -> ChallengeRequest:
    """The challenge request the challenge screen's form describes (``templates/challenges``).

    The first test comes from ``challenger_throw``/``defender_throw``, unless ``script`` (the hidden tests of
    a challenge in progress, random throws already drawn) gives every test; a static challenge or simple test
    without the narrator's throw draws it.

    Raises:
        ServiceError: 422 naming a malformed number (difficulty 0 to 30 Traits, extra bid 0 to 5) or a static
            challenge's missing difficulty.
    """
    kind = said(form, "kind", "contested").lower()
    first = {"call": "test", "challenger_throw": form.get("challenger_throw") or None,
             "defender_throw": form.get("defender_throw") or None}
    if kind != "contested" and not first["defender_throw"]:
        first["defender_throw"] = RANDOM  # the narrator's throw
    relent = any(yes(form, f"{side}_relent") for side in ("challenger", "defender"))
    if kind == "static" and (form.get("difficulty") in (None, "") and not script):
        raise _refuse(N_("Give the difficulty: the number of Traits the narrator sets."), "difficulty")
    return ChallengeRequest(
        category=form.get("category", ""),
        kind=kind,
        challenger=side_request(form, "challenger_"),
        defender=side_request(form, "defender_") if kind == "contested" else None,
        action=form.get("action") or _default_action(kind, form.get("category")),
        defender_action=form.get("defender_action") or "defend",
        difficulty=whole(form, "difficulty", 0, low=0, high=30) if kind == "static" else None,
        extra_bid=whole(form, "extra_bid", 0, low=0, high=5),
        needs_win=yes(form, "needs_win"),
        darkness=form.get("darkness") or "none",
        darkness_source=form.get("darkness_source") or "natural",
        surprised=yes(form, "surprised"),
        tests=tuple(script) if script else (() if relent else (first,)),
        request_token=said(form, "request_token")[:64],
        scene_fields={k: form.get(k) for k in ("darkness", "darkness_source", "range", "sense") if form.get(k)},
        scene_id=form.get("scene_id") or None,
    )


def request_from_json(data: Mapping[str, Any]) -> ChallengeRequest:
    """The stored API's challenge between stored characters.

    ``{"category": "physical", "challenger": {"character_id": 1, "bid": "Quick"},
    "defender": {"character_id": 2, "bid": "Brawny"}, "tests": [{"call": "test",
    "challenger_throw": "rock", "defender_throw": "scissors"}]}`` plus the optional fields of
    :class:`~larp.services.challenge_requests.ChallengeRequest` and
    :class:`~larp.services.challenge_requests.SideRequest`.

    Raises:
        ServiceError: 422 naming a missing or malformed field.
    """
    challenger = _object(data, "challenger", N_("Give the challenger as an object with character_id and bid."))
    kind = said(data, "kind", "contested").lower()
    defender = None
    if kind == "contested":
        defender = _object(data, "defender", N_("Give the defender as an object with character_id and bid."))
    tests = _several(data, "tests", N_("Give the tests, first throws first."))
    return ChallengeRequest(
        category=said(data, "category"),
        kind=kind,
        challenger=side_request(challenger),
        defender=None if defender is None else side_request(defender),
        action=said(data, "action", _default_action(kind, data.get("category"))),
        defender_action=said(data, "defender_action", "defend"),
        difficulty=whole(data, "difficulty", 0, low=0, high=30) if kind == "static" else None,
        extra_bid=whole(data, "extra_bid", 0, low=0, high=5),
        needs_win=bool(data.get("needs_win", False)),
        darkness=said(data, "darkness", "none"),
        darkness_source=said(data, "darkness_source", "natural"),
        surprised=bool(data.get("surprised", False)),
        tests=tuple(tests),
        request_token=said(data, "request_token")[:64],
        scene_fields={k: data.get(k) for k in SCENE_KEYS if data.get(k) not in (None, "")},
        scene_id=data.get("scene_id"),
    )


def _later_tests(data: Mapping[str, Any], where: str, message: str) -> tuple[dict, ...]:
    """A side's later tests (retests) in the stored API: a list of objects (the rules core reads each)."""
    tests = data.get("tests", [])
    if not isinstance(tests, list) or not all(isinstance(t, Mapping) for t in tests):
        raise _refuse(message, f"{where}.tests")
    return tuple(dict(t) for t in tests)


def _own_scene(data: Mapping[str, Any], where: str):
    """A stored fighter's own part of the scene, given beside him (:data:`FIGHTER_SCENE_KEYS`)."""
    return side_scene(lambda key: data.get(key) if key in FIGHTER_SCENE_KEYS else None, "", f"{where}.")


def fighter_from_json(data: Any, where: str) -> FighterRequest:
    """A fighter of a mass challenge or a stray shot's firer in the stored API: ``character_id`` plus the
    optional fields of :class:`~larp.services.mass_challenge.FighterRequest`, and his part of the scene
    (:data:`FIGHTER_SCENE_KEYS`).

    Raises:
        ServiceError: 422 naming the field (``attackers[1].tests``...) of an unknown or malformed value.
    """
    if not isinstance(data, Mapping):
        raise _refuse(N_("Give an object with character_id."), where)
    only(data, set(FighterRequest.__dataclass_fields__) | set(FIGHTER_SCENE_KEYS), where)
    tests = _later_tests(data, where, N_("Give the pair's later tests as a list of objects."))
    return FighterRequest(
        character_id=data.get("character_id"), bid=said(data, "bid"), throw=said(data, "throw"),
        range=said(data, "range", "hand_to_hand"), weapon=said(data, "weapon"), bite=yes(data, "bite"),
        lethal_by_prowess=yes(data, "lethal_by_prowess"), head_shot=yes(data, "head_shot"),
        strength=data.get("strength", True) is not False, relented=yes(data, "relented"),
        celerity_active=yes(data, "celerity_active"), counter=said(data, "counter", "defend"),
        tests=tests, scene=_own_scene(data, where), bomb_announced=yes(data, "bomb_announced"),
        full_auto=yes(data, "full_auto"),
    )


def mass_request_from_json(data: Mapping[str, Any]) -> MassRequest:
    """The stored API's mass challenge between stored characters.

    ``{"target": {"character_id": 2, "throw": "rock", "counter": "strike"},
    "attackers": [{"character_id": 1, "throw": "paper"}, {"character_id": 3,
    "throw": "scissors", "range": "ranged", "weapon": "pistol"}],
    "scene": {"darkness": "total"}}``.

    Raises:
        ServiceError: 422 naming a missing or malformed field.
    """
    target = _object(data, "target", N_("Give the target as an object with character_id."))
    attackers = _several(data, "attackers", N_("Give the attackers as a list of objects with character_id."))
    injures = data.get("injures", [])
    if not isinstance(injures, list):
        raise _refuse(N_("Give the ids of the attackers the target injures."), "injures")
    return MassRequest(
        target=fighter_from_json(target, "target"),
        attackers=tuple(fighter_from_json(a, f"attackers[{i}]") for i, a in enumerate(attackers)),
        injures=tuple(injures), category=said(data, "category", "physical"),
        scene_fields={k: data[k] for k in SCENE_KEYS if data.get(k)}, scene_id=data.get("scene_id"),
    )


def firing_into_groups_request_from_json(data: Mapping[str, Any]) -> FiringIntoGroupsRequest:
    """The stored API's missed shot between stored characters.

    ``{"firer": {"character_id": 9, "weapon": "pistol"}, "target_id": 2,
    "bystanders": [{"character_id": 7, "throw": "paper", "firer_throw": "rock"}]}``
    plus the optional fields of :class:`~larp.services.firing_into_groups.FiringIntoGroupsRequest` and
    :class:`~larp.services.firing_into_groups.BystanderRequest`.

    Raises:
        ServiceError: 422 naming a missing or malformed field.
    """
    firer = _object(data, "firer", N_("Give the firer as an object with character_id and weapon."))
    raw = _several(data, "bystanders", N_("Give the people near the target as a list, closest first."))
    bystanders = []
    for index, b in enumerate(raw):
        where = f"bystanders[{index}]"
        if not isinstance(b, Mapping):
            raise _refuse(N_("Each bystander is an object with character_id."), where)
        only(b, set(BystanderRequest.__dataclass_fields__) | set(FIGHTER_SCENE_KEYS), where)
        tests = _later_tests(b, where, N_("Give the later tests as a list of objects."))
        bystanders.append(BystanderRequest(
            character_id=b.get("character_id"), throw=said(b, "throw"), firer_throw=said(b, "firer_throw"),
            saw_it_coming=yes(b, "saw_it_coming"), excluded=yes(b, "excluded"), bid=said(b, "bid"), tests=tests,
            scene=_own_scene(b, where)))
    return FiringIntoGroupsRequest(
        firer=fighter_from_json(firer, "firer"), target_id=data.get("target_id"),
        bystanders=tuple(bystanders), bursts=data.get("bursts", True) is not False,
        careful_aim=yes(data, "careful_aim"), close_range=yes(data, "close_range"),
        deliberate_spray=yes(data, "deliberate_spray"),
        scene_fields={k: data[k] for k in SCENE_KEYS if data.get(k)}, scene_id=data.get("scene_id"),
    )
