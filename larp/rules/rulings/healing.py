"""The healing ruling, with every consequence: a vampire heals with blood in the live game or at
the tabletop (002 "Damage and Healing"; the tabletop profile's rate; ``agg_heal_model``;
met-reference 5.1), and automatic healing with an empty pool falls back on the rule for blood the
vampire does not have (000 "Health Chart": an incapacitated vampire with no blood enters torpor).
"""

from __future__ import annotations

from larp.rules.blood import call_for_blood
from larp.rules.explain import N_, Phrase, RulesError, blood_points, blood_traits, damage_list, plural
from larp.rules.healing import (
    agg_model,
    heal_aggravated,
    heal_automatically,
    heal_with_blood,
    mark_aggravated_blood,
)
from larp.rules.rulings.blood import BloodRuling
from larp.rules.rulings.consequences import Tally
from larp.rules.rulings.people import Person, person_track
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight, TorporClock

HEAL_KINDS = ("bashing", "lethal", "automatic", "aggravated")
GAMES = ("live", "tabletop")


def blood_rate(settings: ChronicleSettings, game: str) -> dict[str, int] | None:
    """The levels a blood point heals at the tabletop (the profile's ``blood_heals_*``,
    ``data/maneuvers.toml``), or ``None`` for the live game's (002: two bashing, one lethal)."""
    if game == "live":
        return None
    from larp.rules.tabletop.maneuvers import profile_for

    sit = profile_for(settings).situation
    return {"bashing": sit.blood_heals_bashing, "lethal": sit.blood_heals_lethal}


def rule_healing(person: Person, kind: str, levels: int = 1, settings: ChronicleSettings | None = None,
                 game: str = "live", *, night: GameNight | None = None) -> BloodRuling:
    """``person`` heals with blood: ``kind`` bashing or lethal (the player's choice), automatic
    (incapacitated or unconscious: bashing then lethal while blood lasts), or aggravated (by the
    chronicle's ``agg_heal_model``: a night's rest, or Blood Traits put toward the wound in
    instalments under the LotNR "Blood" reading).

    Rules: one blood point heals two bashing or one lethal in the live game (002 "Damage and
    Healing"), one of either at the tabletop (``game`` "tabletop": the profile's rate); blood per
    turn by generation; an incapacitated vampire with an empty pool heals nothing and, the rules
    calling for blood he lacks, loses a level and falls into torpor from blood loss (000 "Health
    Chart", "Torpor"; :func:`larp.rules.rulings.blood.rule_blood_called_for`).

    Args:
        night: the game session the ruling happens in (its date and number, :class:`larp.rules.torpor.GameNight`):
            a vampire it puts in torpor gets the torpor's length and wake date in the consequences and
            at the end of the steps (met-reference 5.2); ``None``: not known, the cause only.

    Raises:
        RulesError: an unknown kind or game, and what the healing rules refuse (a mortal, torpor,
            a stake, too little blood or Willpower, more levels than are marked...).
    """
    settings = settings or ChronicleSettings.defaults()
    if kind not in HEAL_KINDS:
        raise RulesError(Phrase.message(N_("Heal bashing, lethal, aggravated, or automatically.")), field="kind")
    if game not in GAMES:
        raise RulesError(Phrase.message(N_("The game is live or tabletop.")), field="game")
    track = person_track(person, settings)
    rate = blood_rate(settings, game)
    tally = Tally()
    tally.person(person.name, track)
    per_turn = max(person.blood_per_turn, 1)
    if kind == "automatic" and person.blood < 1 and track.is_vampire and track.condition != "torpor" \
            and (track.condition == "unconscious" or track.marked >= track.size - 1):
        call = call_for_blood(track, 0, 1, "healing", settings, person.name)
        tally.hurt(person.name, call.track)
        if call.blood_loss_torpor:
            tally.torpor_cause(person.name, "blood_loss")
        summary = Phrase.message(N_("%(name)s has no blood to heal with: a level is lost and he falls into torpor "
                                    "from blood loss.") if call.blood_loss_torpor else
                                 N_("%(name)s has no blood to heal with: a level is lost."), name=person.name)
        consequences = tally.consequences(TorporClock.of(settings, night, [person]))
        return BloodRuling(summary, tuple(call.steps) + consequences.steps, consequences,
                           {"kind": kind, "healed": {}, "blood_spent": 0, "willpower_spent": 0,
                            "track": call.track.to_dict(), "blood_loss_torpor": call.blood_loss_torpor})
    if kind == "automatic":
        result = heal_automatically(track, person.blood, per_turn, settings, person.name, per_blood=rate)
    elif kind == "aggravated" and agg_model(settings, game).get("instalments"):
        result = mark_aggravated_blood(track, levels, person.blood, person.agg_marked, settings, person.name)
        tally.agg_marked(person.name, result.agg_marked)
    elif kind == "aggravated":
        result = heal_aggravated(track, levels, person.blood, person.willpower, settings, person.name, game)
    else:
        result = heal_with_blood(track, kind, levels, person.blood, per_turn, settings, person.name, per_blood=rate)
    if result.blood_spent:
        tally.blood(person.name, -result.blood_spent)
    if result.willpower_spent:
        tally.spend(person.name, willpower=result.willpower_spent)
    tally.hurt(person.name, result.track)
    healed = damage_list(result.healed.items()) or Phrase.message(N_("nothing"))
    if result.agg_marked is not None:
        summary = Phrase.message(N_("%(name)s puts %(blood)s toward his aggravated damage."), name=person.name,
                                 blood=blood_traits(result.blood_spent))
    elif result.willpower_spent:
        summary = Phrase.message(N_("%(name)s heals %(healed)s for %(blood)s and %(willpower)s Willpower."),
                                 name=person.name, healed=healed, blood=blood_points(result.blood_spent),
                                 willpower=result.willpower_spent)
    else:
        summary = Phrase.message(N_("%(name)s heals %(healed)s for %(blood)s."), name=person.name, healed=healed,
                                 blood=blood_points(result.blood_spent))
    return BloodRuling(summary, result.steps, tally.consequences(), {"kind": kind, "game": game, **result.to_dict()})
