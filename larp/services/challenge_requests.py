"""What a narrator's form or the stateful API asks of a one-on-one challenge (issues 2, 3 and 15).

:class:`ChallengeRequest` and :class:`SideRequest` are the request types; the one input layer reads them
from the challenge screen's form and the stored API (:mod:`larp.web.combat_requests`), and
:mod:`larp.services.challenges` rules on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from larp.rules.calls import SideCalls
from larp.rules.challenge import Category, Kind
from larp.rules.explain import N_, Phrase
from larp.rules.scene import SideScene
from larp.services import ServiceError

RANDOM = "random"

@dataclass(frozen=True)
class SideRequest(SideCalls):
    """What the narrator entered for one side: his calls (:class:`~larp.rules.calls.SideCalls`, by the same
    names in the form and the API) and the fields below.

    Attributes:
        character_id: the stored character.
        bid: the lead Trait bid (the extra Traits a side must risk are picked
            by the tool from what it has most of), or ``"Potence"`` with Intensity.
        weapon: a live armory key (``"knife"``, ``"pistol"``...) or ``""``.
        lead: ``strength``/``speed``/``stamina``/``other``; ``""`` means "from the
            lead Trait" (``data/trait_leads.toml``).
        cover: cover Traits claimed (bonus Traits, never bid).
        celerity_active: Celerity is active this turn (Rapidity's Bomb in speed challenges).
        shroud_caster: this side cast the Shroud of Night (sees through it).
        bid_category: the category the side bids from when it differs from the challenge's
            (a shooter with a firearm may bid Mental Traits, LotNR Bidding Weapon Traits);
            ``""``: the challenge's. A form bid ``"mental:Clever"`` says the same.
        situation: the narrator's bonus (+) or penalty (-) Traits for the situation, -3 to 3,
            counted in ties and overbids, never bid (LotNR Bonus Traits, met-reference 1.3).
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
    cover: int = 0
    celerity_active: bool = False
    shroud_caster: bool = False
    bid_category: str = ""
    situation: int = 0
    damage_throws: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    scene: SideScene = SideScene()


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
        raise ServiceError(Phrase.message(N_("Choose Physical, Social or Mental.")), field="category")
    return category


def parse_kind(value: str) -> Kind:
    """The kind of challenge ``value`` names (contested, static or simple; LotNR Challenges).

    Raises:
        ServiceError: 422 naming ``kind``.
    """
    try:
        return Kind((value or "contested").strip().lower())
    except ValueError:
        raise ServiceError(Phrase.message(N_("Choose a contested challenge, a static challenge or a simple test.")),
                           field="kind") from None
