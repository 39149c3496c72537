"""Running a challenge between two stored characters (issue 2; seed 002 "Challenges", "Ties")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from larp.db import db
from larp.models import Character, Chronicle, Ruling, TraitLoss, User
from larp.rules.challenge import (
    ACTIONS,
    Category,
    Challenge,
    ChallengeRuling,
    Contestant,
    Outcome,
    RandomSource,
    Throw,
    parse_throw,
    random_throw,
    resolve_challenge,
)
from larp.rules.explain import RulesError
from larp.rules.damage import Damage, Target, damage_taken
from larp.services import ServiceError
from larp.services.characters import CharacterState, character_state, get_character
from larp.services.chronicles import chronicle_settings, current_game_session
from larp.services.health import store_track
from larp.services.records import record_ruling

RANDOM = "random"


@dataclass(frozen=True)
class ChallengeRequest:
    """What the narrator entered: characters by id, category, bids, throws, action.

    A throw of ``"random"`` is drawn from the injected random source (for a
    narrator character); the drawn throw is what is recorded.
    """

    challenger_id: Any
    defender_id: Any
    category: str
    challenger_bid: str
    defender_bid: str
    challenger_throw: str
    defender_throw: str
    action: str = "strike"


def parse_category(value: str) -> Category:
    """The category named by ``value``.

    Raises:
        ServiceError: 422 naming ``category``.
    """
    try:
        return Category((value or "").strip().lower())
    except ValueError:
        raise ServiceError("Choose Physical, Social or Mental.", field="category") from None


def _throw(value: str, field: str, rng: RandomSource) -> tuple[Throw, bool]:
    if (value or "").strip().lower() == RANDOM:
        return random_throw(rng), True
    try:
        throw = parse_throw(value, field)
    except RulesError as exc:
        raise ServiceError(exc.message, field=field) from None
    if throw is Throw.BOMB:
        raise ServiceError("The Bomb needs a power that allows it in this kind of challenge.", field=field)
    return throw, False


def _check_can_act(character: Character, state: CharacterState, field: str) -> None:
    if character.condition != "active":
        reason = {
            "unconscious": "is unconscious",
            "torpor": "is in torpor",
            "final_death": "has met Final Death",
            "dead": "is dead",
        }.get(character.condition, character.condition)
        raise ServiceError(f"{character.name} {reason} and cannot take part in a challenge.", field=field)
    if state.health is not None and state.health.marked >= state.health.size - 1:
        raise ServiceError(
            f"{character.name} is Incapacitated: no challenges until one level is healed.", field=field
        )


def run_challenge(
    chronicle: Chronicle, narrator: User | None, request: ChallengeRequest, rng: RandomSource
) -> tuple[Ruling, ChallengeRuling]:
    """Adjudicate ``request`` and apply it, in one transaction.

    Loads both characters, checks that each bid Trait is still available in
    the open game session (a form can go stale when the Trait was lost in
    another challenge meanwhile), resolves the challenge with the rules core,
    records the lost Traits against the game session, marks damage on the
    loser's health track, and writes the ruling record with its inputs,
    outcome and explanation. Nothing is written if anything fails.

    Raises:
        ServiceError: 404 unknown character; 422 a character challenging
            itself, an unknown category, a missing or unknown throw, an
            empty bid, a character who cannot act; 409 a bid Trait no longer
            available or a character changed meanwhile.
    """
    category = parse_category(request.category)
    if request.action not in ACTIONS:
        raise ServiceError("Choose what the challenger attempts.", field="action")
    with db.atomic():
        game_session = current_game_session(chronicle)
        settings = chronicle_settings(chronicle)
        challenger = get_character(chronicle, request.challenger_id, "challenger")
        defender = get_character(chronicle, request.defender_id, "defender")
        if challenger.id == defender.id:
            raise ServiceError(f"{challenger.name} cannot challenge themself: choose another defender.",
                               field="defender")
        states = {
            "challenger": character_state(challenger, game_session, settings),
            "defender": character_state(defender, game_session, settings),
        }
        bids: dict[str, str] = {}
        for side, character, bid in (
            ("challenger", challenger, request.challenger_bid),
            ("defender", defender, request.defender_bid),
        ):
            _check_can_act(character, states[side], side)
            bid = (bid or "").strip()
            if not bid:
                raise ServiceError(f"Choose the Trait {character.name} bids.", field=f"{side}_bid")
            if not states[side].trait_left(category.value, bid):
                had = any(line.name == bid for line in states[side].traits[category.value])
                if had:
                    raise ServiceError(
                        f"{character.name} has no {bid} left: it was lost earlier this game session. "
                        "Choose another Trait.",
                        field=f"{side}_bid",
                        status=409,
                    )
                raise ServiceError(
                    f"{character.name} has no {category.label} Trait called {bid}.", field=f"{side}_bid"
                )
            bids[side] = bid
        challenger_throw, challenger_random = _throw(request.challenger_throw, "challenger_throw", rng)
        defender_throw, defender_random = _throw(request.defender_throw, "defender_throw", rng)

        challenge = Challenge(
            category=category,
            challenger=Contestant(challenger.name, states["challenger"].available(category.value), (bids["challenger"],)),
            defender=Contestant(defender.name, states["defender"].available(category.value), (bids["defender"],)),
            action=request.action,
        )
        try:
            ruling = resolve_challenge(challenge, challenger_throw, defender_throw)
        except RulesError as exc:
            raise ServiceError(exc.message, field=exc.field) from None

        by_side = {Outcome.CHALLENGER: challenger, Outcome.DEFENDER: defender}
        new_tracks = {}
        health_steps = []
        for hit in ruling.damage:
            target = by_side[hit.target]
            track = new_tracks.get(hit.target, states[hit.target.value].health)
            taken = damage_taken(Damage(levels=hit.levels, damage_type=hit.damage_type),
                                 Target(creature=target.creature), settings, who=target.name)
            result = taken.apply_to(track, settings, target.name)
            new_tracks[hit.target] = result.track
            health_steps.extend(result.steps)
        all_steps = [s.to_dict() for s in (*ruling.steps, *health_steps)]

        record = record_ruling(
            chronicle, narrator, "challenge", ruling.summary, all_steps,
            [(challenger, "challenger"), (defender, "defender")],
            game_session=game_session,
            inputs={
                "category": category.value,
                "action": request.action,
                "challenger": {"id": challenger.id, "name": challenger.name, "bid": bids["challenger"],
                               "traits": challenge.challenger.traits, "throw": challenger_throw.value,
                               "random_throw": challenger_random},
                "defender": {"id": defender.id, "name": defender.name, "bid": bids["defender"],
                             "traits": challenge.defender.traits, "throw": defender_throw.value,
                             "random_throw": defender_random},
            },
            outcome={**ruling.to_dict(), "steps": all_steps},
        )
        for side, character in by_side.items():
            for trait in ruling.lost_by(side):
                TraitLoss.create(character=character, game_session=game_session, category=category.value,
                                 name=trait, count=1, ruling=record)
        for side, track in new_tracks.items():
            store_track(by_side[side], track)
        return record, ruling
