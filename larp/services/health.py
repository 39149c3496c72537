"""Damage and healing on stored characters (issue 5).

Every change reads the character, lets the rules core compute the new track
(and blood and Willpower), and writes it back only if the character's
``version`` is still the one it read (optimistic locking, stack-notes 2.4);
on a conflict the whole use case is retried on fresh data, so two narrators
damaging the same character at the same moment lose neither change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from larp.db import db
from larp.models import Character, Chronicle, Ruling, User
from larp.rules.challenge import RandomSource
from larp.rules.explain import N_, Phrase, RulesError, phrase_step, Step
from larp.rules.fortitude import FortitudeTest
from larp.rules.health import HealthTrack
from larp.rules.rulings import DamageEntered, HandDamage
from larp.rules.scene import SideScene
from larp.rules.simple_test import SimpleTest
from larp.services import ServiceError, read_number
from larp.services.adjudicate import (
    BloodCalledFor,
    Damage,
    Feeding,
    GivenBlood,
    Healing,
    SingleShot,
    TrackAction,
    adjudicate,
)
from larp.services.characters import character_state, get_character
from larp.services.chronicles import chronicle_settings, open_game_session
from larp.services.consequences import retrying, store_track
from larp.services.records import record_ruling
from larp.services.scenes import side_scene
from larp.services.table_results import entered_test, throws_from



def _int(value: Any, field: str, low: int = 0, high: int = 50) -> int:
    return read_number(value, field, low=low, high=high, required=True)


def _flag(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "on", "yes") if value is not None else False


def _test(data: Mapping[str, Any], prefix: str, rng: RandomSource) -> FortitudeTest | None:
    """A Fortitude simple test from ``<prefix>`` ("resistance"/"resilience") fields, if asked for:
    the throws as thrown at the table, ``random`` (or left out) drawn by the app, and the test
    remembers which (issue 17: the table's own results)."""
    if not _flag(data.get(prefix)):
        return None
    pair = (data.get(f"{prefix}_player"), data.get(f"{prefix}_narrator"))
    return FortitudeTest(entered_test(pair, f"{prefix}_player", rng), stamina_trait_spent=_flag(data.get("stamina")))


def _entered(data: Mapping[str, Any], prefix: str, rng: RandomSource) -> SimpleTest | None:
    """A simple test entered as thrown at the table in ``<prefix>_player``/``<prefix>_narrator``
    (``random`` drawn by the app); ``None`` when neither was entered (the rules core draws it)."""
    return entered_test(throws_from(data, prefix), f"{prefix}_player", rng)


@dataclass(frozen=True)
class DamageRequest(DamageEntered):
    """Damage a narrator applies by hand (or the API on a stored character): the fields of
    :class:`larp.rules.rulings.DamageEntered` as a form or JSON gives them (``turns`` 1 to 60).

    Attributes:
        raw: the submitted fields (Fortitude tests are read from them).
        scene: the armor he wears for this ruling (``armor``, ``armor_left``; empty: the sheet's).
    """

    raw: Mapping[str, Any] | None = None
    scene: SideScene = SideScene()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> "DamageRequest":
        """Read the form or JSON fields.

        Raises:
            ServiceError: 422 naming a malformed field.
        """
        damage_type = str(data.get("damage_type") or "bashing").strip().lower()
        if damage_type not in ("bashing", "lethal", "aggravated"):
            raise ServiceError(Phrase.message(N_("Damage is bashing, lethal or aggravated.")), field="damage_type")
        source = str(data.get("source") or "other").strip().lower()
        if source not in ("other", "fire", "sunlight"):
            raise ServiceError(Phrase.message(N_("The source is fire, sunlight or other.")), field="source")
        exposure = str(data.get("exposure") or "").strip().lower()
        if exposure not in ("", "indirect", "direct"):
            raise ServiceError(Phrase.message(N_("Sunlight's exposure is indirect or direct.")), field="exposure")
        levels = read_number(data.get("levels"), "levels", default=1)
        if levels < 0:
            raise ServiceError(Phrase.message(N_("Damage cannot be negative.")), field="levels")
        return cls(
            damage_type=damage_type,
            levels=_int(levels, "levels", 0, 20),
            weapon=str(data.get("weapon") or "").strip(),
            bite=_flag(data.get("bite")),
            firearm=_flag(data.get("firearm")),
            head_shot=_flag(data.get("head_shot")),
            source=source,
            exposure=exposure,
            turns=_int(read_number(data.get("turns"), "turns", default=1), "turns", 1, 60),
            attacker_potence=_int(data.get("attacker_potence") or 0, "attacker_potence", 0, 10),
            lethal_by_prowess=_flag(data.get("lethal_by_prowess")),
            armor_piercing=_flag(data.get("armor_piercing")),
            killing_blow=_flag(data.get("killing_blow")),
            raw=data,
            scene=side_scene(lambda key: data.get(key) if key in ("armor", "armor_left") else None, ""),
        )

    def recorded(self) -> dict[str, Any]:
        """What the record keeps of the damage (the fields but the raw form and the scene)."""
        return self.entered()

    def hand(self, rng: RandomSource) -> HandDamage:
        """The damage as the rules core takes it, with the Fortitude tests asked for (their
        throws read from the submitted fields, ``random`` drawn from ``rng``).

        Raises:
            ServiceError: 422 naming a malformed throw.
        """
        raw = self.raw or {}
        return HandDamage(**self.entered(), high_caliber_test=_entered(raw, "high_caliber", rng),
                          resistance=_test(raw, "resistance", rng), resilience=_test(raw, "resilience", rng),
                          stamina=_flag(raw.get("stamina")))


def apply_damage_to(chronicle: Chronicle, narrator: User | None, character_id: Any, request: DamageRequest,
                    rng: RandomSource) -> Ruling:
    """Apply damage to a stored character and record it (:func:`damage_character`); the ruling.

    Raises:
        ServiceError: as :func:`damage_character`.
    """
    return damage_character(chronicle, narrator, character_id, request, rng)[0]


def damage_character(chronicle: Chronicle, narrator: User | None, character_id: Any, request: DamageRequest,
                     rng: RandomSource) -> tuple[Ruling, Character, HealthTrack]:
    """Apply damage to a stored character and record it, in one transaction (retried on a conflict):
    :func:`larp.services.adjudicate.adjudicate` on a :class:`larp.services.adjudicate.Damage`.

    Loads him (two queries), calls the rules core once (:func:`larp.rules.rulings.rule_damage_by_hand`:
    the damage type against his kind, vampires halving bashing damage (not from firearms),
    Fortitude's Resilience and Resistance when the player tests, the armor he wears (the
    narrator's choice for this ruling, else the sheet's; armor-piercing rounds, fire and sunlight
    ignore it), then his track with Mettle: below Incapacitated a vampire falls unconscious
    (bashing) or into torpor (lethal, aggravated), aggravated damage to an Incapacitated or
    torpid vampire is Final Death, a mortal dies; 002 "Damage and Healing"; 000 "Applying
    Damage"; met-reference 3.5, 3.7, 4.1), records it and writes the consequences.

    Returns:
        The ruling, the character as stored afterwards, and his track afterwards.

    Raises:
        ServiceError: 404 unknown character; 422 bad input or a character
            nothing can harm any more (Final Death is final); 409 after repeated conflicts,
            or a stamina Trait to spend with no game session open.
    """
    recorded = adjudicate(chronicle, narrator, Damage(character_id, request, rng))
    return recorded.ruling, recorded.character(), recorded.result.health.track


def heal_character(chronicle: Chronicle, narrator: User | None, character_id: Any, kind: str, levels: Any,
                   game: str = "live") -> Ruling:
    """Heal a stored vampire with blood and record it, in one transaction (retried on a conflict),
    by the rules core's :func:`larp.rules.rulings.rule_healing` (:class:`larp.services.adjudicate.Healing`).

    ``kind``: ``bashing`` or ``lethal`` (the player's choice: one blood point heals two bashing or one
    lethal in the live game, one of either at the tabletop, ``game``), ``automatic`` (incapacitated or
    unconscious: bashing, then lethal, while blood lasts; with an empty pool a level is lost instead and
    past Incapacitated he falls into torpor from blood loss, 000 "Health Chart"), ``aggravated`` (one
    night's rest: three blood points and one Willpower a level under seed 002, or the chronicle's
    ``agg_heal_model``, Blood Traits put toward the wound in instalments under the LotNR "Blood"
    reading) (002 "Damage and Healing").

    Raises:
        ServiceError: 404 unknown character; 422 a mortal, a destroyed or torpid
            character, ordinary blood on aggravated damage, too little blood
            or Willpower, more levels than are marked.
    """
    return adjudicate(chronicle, narrator, Healing(character_id, kind, levels, game)).ruling


def feed_on_victim(chronicle: Chronicle, narrator: User | None, drinker_id: Any, victim_id: Any, blood: Any) -> Ruling:
    """A vampire feeds on a victim and drains ``blood`` Blood Traits: each costs a mortal or ghoul a
    level of lethal damage, at most three a turn, and the drinker drinks no more than his pool holds,
    the victim losing only that (LotNR "Blood", met-reference 3.7; generation table, 5.1; setting
    ``drain_past_full_pool``; :func:`larp.rules.rulings.rule_feeding`,
    :class:`larp.services.adjudicate.Feeding`). One transaction.

    Raises:
        ServiceError: 404 unknown character; 422 what the rules refuse (not a vampire, the same
            character, a dead victim, a full pool...).
    """
    return adjudicate(chronicle, narrator, Feeding(drinker_id, victim_id, blood)).ruling


NARRATOR_ACTIONS = ("behead", "heart", "massive_trauma", "stake", "remove_stake", "wake", "feed", "blood")


def narrator_request(character_id: Any, action: str, blood: Any = None, reason: str = "other") -> SingleShot:
    """A narrator's action (:func:`narrator_action`) as the single shot that rules on it.

    Raises:
        ServiceError: 422 an unknown action, a malformed number of blood points.
    """
    if action not in NARRATOR_ACTIONS:
        raise ServiceError(Phrase.message(N_("Unknown narrator action.")), field="action")
    if action == "feed":
        return GivenBlood(character_id, blood, reason=reason)
    if action == "blood":
        return BloodCalledFor(character_id, blood, reason)
    return TrackAction(character_id, action, blood)


def narrator_action(chronicle: Chronicle, narrator: User | None, character_id: Any, action: str,
                    blood: Any = None, reason: str = "other") -> Ruling:
    """A narrator's action on a character, recorded (002 "Damage and Healing"; 000).

    ``behead`` / ``heart``: destruction by cutting off the head or tearing out
    the heart (Final Death); ``massive_trauma``: the body destroyed beyond repair, only a
    vampire Incapacitated or in torpor, or a mortal (000 "Final Death"); ``stake`` / ``remove_stake``; ``wake``: an
    unconscious vampire comes round after his scene or hour; ``feed``: blood
    placed in a helpless vampire's mouth is swallowed until the pool is full,
    an active one simply feeds (``blood`` blood points offered); ``blood``: the rules
    call for ``blood`` blood points (``reason``: rising at sunset, a Discipline, healing,
    other) and an empty pool costs a health level for each, past Incapacitated torpor from
    blood loss (000 "Health Chart", "Torpor"; :func:`larp.rules.rulings.rule_blood_called_for`).

    Raises:
        ServiceError: 404 unknown character; 422 an unknown action or one the
            rules refuse (Final Death is final).
    """
    return adjudicate(chronicle, narrator, narrator_request(character_id, action, blood, reason)).ruling


AEGIS_KINDS = ("damage", "challenge", "mass_combat", "firing_into_group", "tabletop")


def aegis_candidates(character: Character) -> list[Ruling]:
    """The rulings of the open game session that damaged ``character`` and may start "this turn"
    for Aegis (newest first, not undone)."""
    from larp.models import RulingCharacter

    game_session = open_game_session(character.chronicle)
    if game_session is None:
        return []
    query = (Ruling.select().join(RulingCharacter)
             .where((RulingCharacter.character == character) & (Ruling.game_session == game_session)
                    & (Ruling.kind.in_(AEGIS_KINDS)) & Ruling.undone_at.is_null())
             .order_by(Ruling.id.desc()).limit(8))
    return list(query)


def invoke_aegis_for(chronicle: Chronicle, narrator: User | None, character_id: Any, since_ruling: Any,
                     payment: str) -> Ruling:
    """Fortitude's Aegis: cancel all damage the character took this turn, Final Death included
    (met-reference 3.5, T22), paid with 1 permanent Willpower or 3 permanent Physical Traits.

    The narrator names the first ruling of the turn; the track goes back to what it was just
    before it. The payment is permanent: Willpower comes off the permanent rating, the Physical
    Traits off the sheet (those the character has most of). Recorded; the character takes no
    damage for the rest of the turn (the narrator's to uphold).

    Raises:
        ServiceError: 404 unknown character or ruling; 422 no Aegis (Fortitude 5), a ruling of
            another game session or that did not touch the character, nothing to pay with.
    """
    from larp.db import as_id
    from larp.models import RulingCharacter, Trait
    from larp.rules.fortitude import invoke_aegis

    settings = chronicle_settings(chronicle)

    def use_case() -> Ruling:
        with db.atomic():
            character = get_character(chronicle, character_id)
            state = character_state(character, open_game_session(chronicle), settings)
            link = (RulingCharacter.select().join(Ruling)
                    .where((RulingCharacter.character == character) & (Ruling.id == as_id(since_ruling)))
                    .first())
            if link is None or link.ruling not in aegis_candidates(character):
                raise ServiceError(Phrase.message(N_("Choose the ruling that began this turn, from this game "
                                                     "session's damage to %(name)s."),
                                                  name=character.name), field="since", status=404 if link is None else 422)
            before = link.before or {}
            turn_start = HealthTrack(levels=state.health.levels, creature=character.creature,
                                     aggravated=before.get("damage_aggravated", 0), lethal=before.get("damage_lethal", 0),
                                     bashing=before.get("damage_bashing", 0), condition=before.get("condition", "active"),
                                     staked=bool(before.get("staked", False)))
            try:
                result = invoke_aegis(turn_start, state.health, state.discipline_level("Fortitude"), payment,
                                      character.name)
            except RulesError as exc:
                raise ServiceError(exc.message, field=exc.field if exc.field != "turn_start" else "since") from None
            paid: list[str] = []
            if payment == "willpower":
                if character.willpower_permanent < 1:
                    raise ServiceError(Phrase.message(N_("%(name)s has no permanent Willpower to spend."),
                                                      name=character.name), field="payment")
            else:
                rows = sorted(Trait.select().where((Trait.character == character) & (Trait.category == "physical")
                                                   & (Trait.negative == False)),  # noqa: E712
                              key=lambda t: (-t.count, t.name))
                if sum(t.count for t in rows) < 3:
                    raise ServiceError(Phrase.message(N_("%(name)s has fewer than 3 Physical Traits to spend."),
                                                      name=character.name), field="payment")
                for trait in rows:
                    while trait.count > 0 and len(paid) < 3:
                        trait.count -= 1
                        paid.append(trait.name)
            steps = list(result.steps)
            if paid:
                steps.append(phrase_step(N_("%(name)s loses %(traits)s from the sheet, permanently."),
                                         "LotNR Fortitude: Aegis (met-reference 3.5)", name=character.name, traits=paid))
            summary = Phrase.message(N_("%(name)s invokes Aegis: the damage of this turn is undone (%(cost)s)."),
                                     name=character.name, cost=result.cost)
            record = record_ruling(chronicle, narrator, "aegis", summary, steps, [(character, "subject")],
                                   game_session=open_game_session(chronicle),
                                   inputs={"character": character.id, "since": link.ruling.id, "payment": payment},
                                   outcome={"track": result.track.to_dict(), "paid": paid or result.cost})
            if payment == "willpower":
                Character.update(willpower_permanent=Character.willpower_permanent - 1).where(
                    Character.id == character.id).execute()
                character = Character.get_by_id(character.id)
            for trait in {t.name: t for t in rows}.values() if paid else ():
                if trait.count:
                    Trait.update(count=trait.count).where(Trait.id == trait.id).execute()
                else:
                    Trait.delete().where(Trait.id == trait.id).execute()
            store_track(character, result.track, ruling=record,
                        willpower_current=min(character.willpower_current, character.willpower_permanent))
            return record

    return retrying(use_case)
