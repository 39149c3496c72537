"""What a narrator's form or the stateful API asks of a one-on-one challenge (issues 2, 3 and 15).

:class:`ChallengeRequest` and :class:`SideRequest` are the request types; :func:`request_from_form`
and :func:`request_from_json` read them, and :mod:`larp.services.challenges` rules on them. Reading
a request touches no database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from larp.rules.challenge import Category, Kind
from larp.rules.scene import SideScene
from larp.services import ServiceError, read_number
from larp.services.scenes import SCENE_KEYS, side_scene
from larp.services.table_results import DAMAGE_TESTS, throws_from

RANDOM = "random"

def _flag(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "on", "yes") if value is not None else False


def _specialisation(value: Any) -> bool | str:
    """A side's specialisation as a form or the stored API gives it: a tick (``on``, ``true``...:
    the sheet's specialised Ability), nothing (none), or the Ability's name (LotNR Abilities)."""
    if isinstance(value, bool) or value is None:
        return bool(value)
    text = str(value).strip()
    if text.lower() in ("", "0", "false", "off", "no"):
        return False
    return True if text.lower() in ("1", "true", "on", "yes") else text


def _number(value: Any, field: str, low: int = 0, high: int | None = None, default: int = 0) -> int:
    return read_number(value, field, low=low, high=high, default=default)


@dataclass(frozen=True)
class SideRequest:
    """What the narrator entered for one side.

    Attributes:
        character_id: the stored character.
        bid: the lead Trait bid (the extra Traits a side must risk are picked
            by the tool from what it has most of), or ``"Potence"`` with Intensity.
        weapon: a live armory key (``"knife"``, ``"pistol"``...) or ``""``.
        lead: ``strength``/``speed``/``stamina``/``other``; ``""`` means "from the
            lead Trait" (``data/trait_leads.toml``).
        steps_moved: 0 to 3 steps taken before acting (LotNR three-step rule).
        off_hand: attacking with the off hand.
        relent: the side relents before the test.
        cover: cover Traits claimed (bonus Traits, never bid).
        specialisation: an Ability specialisation applies (+1 bonus Trait).
        calls_negative: a Negative Trait this side calls on the other.
        celerity_active: Celerity is active this turn (Rapidity's Bomb in speed challenges).
        waive_darkness: expend a Blindfighting level to skip the forced retest of total darkness.
        lethal_by_prowess: with Prowess, the strike does lethal damage.
        head_shot: a firearm aimed at the head.
        shroud_caster: this side cast the Shroud of Night (sees through it).
        bomb_announced: the side announced the Bomb before the challenge (LotNR Vigor: the Bomb
            exists only when announced).
        both_hands: the side fights with a weapon in each hand this turn (met-reference 3.8).
        bid_category: the category the side bids from when it differs from the challenge's
            (a shooter with a firearm may bid Mental Traits, LotNR Bidding Weapon Traits);
            ``""``: the challenge's. A form bid ``"mental:Clever"`` says the same.
        situation: the narrator's bonus (+) or penalty (-) Traits for the situation, -3 to 3,
            counted in ties and overbids, never bid (LotNR Bonus Traits, met-reference 1.3).
        stake: this side drives his Staking weapon at the heart (met-reference 3.7).
        ignore_wounds: this side spends a Willpower Trait to ignore his wound penalties, up to and
            including Incapacitated, for this turn (LotNR Willpower, met-reference 2.1).
        damage_throws: the simple tests after this side's hit as thrown at the table, by test
            (``high_caliber``, ``staking1``, ``staking2``) as (player, narrator) throws; a throw
            left out or ``random`` is drawn by the app, and the record says so.
        scene: this side's part of the scene (:mod:`larp.services.scenes`: his own darkness,
            sight powers turned off, cover, the armor worn for this ruling, the weapon).
    """

    character_id: Any
    bid: str = ""
    weapon: str = ""
    lead: str = ""
    steps_moved: int = 0
    off_hand: bool = False
    relent: bool = False
    cover: int = 0
    specialisation: bool | str = False
    calls_negative: str = ""
    celerity_active: bool = False
    waive_darkness: bool = False
    lethal_by_prowess: bool = False
    head_shot: bool = False
    shroud_caster: bool = False
    bomb_announced: bool = False
    both_hands: bool = False
    bid_category: str = ""
    situation: int = 0
    stake: bool = False
    ignore_wounds: bool = False
    full_auto: bool = False
    damage_throws: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    scene: SideScene = SideScene()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], prefix: str = "") -> "SideRequest":
        """Read a side from form fields (``prefix`` ``"challenger_"``) or a JSON object (no prefix).

        Raises:
            ServiceError: 422 naming the field of a malformed number.
        """
        def get(key: str, default: Any = "") -> Any:
            return data.get(prefix + key, default)

        weapon = str(get("weapon") or "").strip()
        bid = str(get("bid") or "").strip()
        bid_category = str(get("bid_category") or "").strip().lower()
        kind, sep, name = bid.partition(":")
        if sep and kind.strip().lower() in ("physical", "social", "mental"):
            bid_category, bid = kind.strip().lower(), name.strip()
        return cls(
            character_id=get("character_id", None) if not prefix else data.get(prefix.rstrip("_")),
            bid=bid,
            bid_category=bid_category,
            situation=_number(get("situation"), prefix + "situation", -3, 3),
            bomb_announced=_flag(get("bomb_announced", False)),
            both_hands=_flag(get("both_hands", False)),
            weapon=weapon,
            lead=str(get("lead") or "").strip().lower(),
            steps_moved=_number(get("steps_moved"), prefix + "steps_moved", 0, 3),
            off_hand=_flag(get("off_hand", False)),
            relent=_flag(get("relent", False)),
            cover=_number(get("cover"), prefix + "cover", 0, 6),
            specialisation=_specialisation(get("specialisation", False)),
            calls_negative=str(get("calls_negative") or "").strip(),
            celerity_active=_flag(get("celerity_active", False)),
            waive_darkness=_flag(get("waive_darkness", False)),
            lethal_by_prowess=_flag(get("lethal_by_prowess", False)),
            head_shot=_flag(get("head_shot", False)),
            shroud_caster=_flag(get("shroud_caster", False)),
            stake=_flag(get("stake", False)),
            ignore_wounds=_flag(get("ignore_wounds", False)),
            full_auto=_flag(get("full_auto", False)),
            damage_throws={test: pair for test in DAMAGE_TESTS
                           if (pair := throws_from({k: get(k, None) for k in (f"{test}_player", f"{test}_narrator")},
                                                   test)) is not None},
            scene=side_scene(lambda key: get(key, None), prefix, weapon=weapon),
        )


@dataclass(frozen=True)
class ChallengeRequest:
    """A challenge as the narrator (or the stateful API) describes it.

    Attributes:
        kind: ``contested``, ``static`` or ``simple``.
        category: ``physical``, ``social`` or ``mental``.
        challenger, defender: the sides (no defender in static and simple).
        action: what the challenger attempts (a key of ``ACTIONS``).
        defender_action: ``defend``, or a counter-attack (``strike``...).
        difficulty: a static challenge's difficulty, in Traits.
        extra_bid: extra Traits the narrator's difficulty makes the challenger risk.
        needs_win: a simple test whose effect needs an outright win.
        darkness: the scene's darkness: ``none``, ``partial`` or ``total``.
        darkness_source: ``natural`` or ``shroud`` (Obtenebration's Shroud of Night).
        scene_fields: the scene as the form or the call gave it (``darkness``,
            ``darkness_source``, ``range``, or a ``scene`` object; :func:`larp.services.scenes.scene_of`).
        surprised: the defender is surprised.
        tests: the tests, first throws first, as JSON-like dicts
            (``{"call": "retest", "by": "challenger", "source": "ability:Brawl",
            "challenger_throw": "rock", "defender_throw": "paper"}``); a throw
            of ``"random"`` is drawn from the random source and recorded.
    """

    category: str
    challenger: SideRequest
    defender: SideRequest | None = None
    kind: str = "contested"
    action: str = "strike"
    defender_action: str = "defend"
    difficulty: int | None = None
    extra_bid: int = 0
    needs_win: bool = False
    darkness: str = "none"
    darkness_source: str = "natural"
    surprised: bool = False
    tests: tuple[dict, ...] = ()
    request_token: str = ""
    scene_fields: Mapping[str, Any] = field(default_factory=dict)
    scene_id: Any = None


def parse_category(value: str) -> Category:
    """The category named by ``value`` (Physical, Social or Mental).

    Raises:
        ServiceError: 422 naming ``category``.
    """
    try:
        category = Category((value or "").strip().lower())
    except ValueError:
        category = None
    if category is None or category is Category.VIRTUE:
        raise ServiceError("Choose Physical, Social or Mental.", field="category")
    return category


def parse_kind(value: str) -> Kind:
    """The kind of challenge ``value`` names (contested, static or simple; LotNR Challenges).

    Raises:
        ServiceError: 422 naming ``kind``.
    """
    try:
        return Kind((value or "contested").strip().lower())
    except ValueError:
        raise ServiceError("Choose a contested challenge, a static challenge or a simple test.", field="kind") from None


def _is_physical(category: Any) -> bool:
    return str(category or "").strip().lower() == Category.PHYSICAL.value


def request_from_form(form: Mapping[str, Any], script: list[dict] | None = None) -> ChallengeRequest:
    """The challenge request a narrator's form describes (see ``templates/challenges``).

    The first test comes from ``challenger_throw``/``defender_throw``, unless
    ``script`` (the hidden tests of a challenge in progress, random throws
    already drawn) gives every test.

    Raises:
        ServiceError: 422 naming a malformed number.
    """
    kind = (form.get("kind") or "contested").strip().lower()
    first = {"call": "test", "challenger_throw": form.get("challenger_throw") or None,
             "defender_throw": form.get("defender_throw") or None}
    if kind != "contested" and not first["defender_throw"]:
        first["defender_throw"] = RANDOM  # the narrator's throw
    relent = any(_flag(form.get(f"{side}_relent")) for side in ("challenger", "defender"))
    if kind == "static" and (form.get("difficulty") in (None, "") and not script):
        raise ServiceError("Give the difficulty: the number of Traits the narrator sets.", field="difficulty")
    difficulty = _number(form.get("difficulty"), "difficulty", 0, 30) if kind == "static" else None
    return ChallengeRequest(
        category=form.get("category", ""),
        kind=kind,
        challenger=SideRequest.from_mapping(form, "challenger_"),
        defender=SideRequest.from_mapping(form, "defender_") if kind == "contested" else None,
        action=form.get("action") or ("strike" if kind == "contested" and _is_physical(form.get("category")) else "other"),
        defender_action=form.get("defender_action") or "defend",
        difficulty=difficulty,
        extra_bid=_number(form.get("extra_bid"), "extra_bid", 0, 5),
        needs_win=_flag(form.get("needs_win")),
        darkness=form.get("darkness") or "none",
        darkness_source=form.get("darkness_source") or "natural",
        surprised=_flag(form.get("surprised")),
        tests=tuple(script) if script else (() if relent else (first,)),
        request_token=str(form.get("request_token") or "")[:64],
        scene_fields={k: form.get(k) for k in ("darkness", "darkness_source", "range", "sense") if form.get(k)},
        scene_id=form.get("scene_id") or None,
    )


def request_from_json(data: Mapping[str, Any]) -> ChallengeRequest:
    """The stateful API's challenge between stored characters.

    ``{"category": "physical", "challenger": {"character_id": 1, "bid": "Quick"},
    "defender": {"character_id": 2, "bid": "Brawny"}, "tests": [{"call": "test",
    "challenger_throw": "rock", "defender_throw": "scissors"}]}`` plus the
    optional fields of :class:`ChallengeRequest` and :class:`SideRequest`.

    Raises:
        ServiceError: 422 naming a missing or malformed field.
    """
    if not isinstance(data.get("challenger"), Mapping):
        raise ServiceError("Give the challenger as an object with character_id and bid.", field="challenger")
    kind = str(data.get("kind") or "contested").strip().lower()
    defender = None
    if kind == "contested":
        if not isinstance(data.get("defender"), Mapping):
            raise ServiceError("Give the defender as an object with character_id and bid.", field="defender")
        defender = SideRequest.from_mapping(data["defender"])
    tests = data.get("tests")
    if not isinstance(tests, list) or not tests:
        raise ServiceError("Give the tests, first throws first.", field="tests")
    return ChallengeRequest(
        category=str(data.get("category") or ""),
        kind=kind,
        challenger=SideRequest.from_mapping(data["challenger"]),
        defender=defender,
        action=str(data.get("action") or ("strike" if kind == "contested" and _is_physical(data.get("category")) else "other")),
        defender_action=str(data.get("defender_action") or "defend"),
        difficulty=_number(data.get("difficulty"), "difficulty", 0, 30) if kind == "static" else None,
        extra_bid=_number(data.get("extra_bid"), "extra_bid", 0, 5),
        needs_win=bool(data.get("needs_win", False)),
        darkness=str(data.get("darkness") or "none"),
        darkness_source=str(data.get("darkness_source") or "natural"),
        surprised=bool(data.get("surprised", False)),
        tests=tuple(tests),
        request_token=str(data.get("request_token") or "")[:64],
        scene_fields={k: data.get(k) for k in SCENE_KEYS if data.get(k) not in (None, "")},
        scene_id=data.get("scene_id"),
    )
