"""Blood: a vampire feeding on a victim, blood given to a vampire, and what happens when the
rules call for blood a vampire does not have (LotNR "Blood", met-reference 3.7, 4.1, 5.1;
002 "Damage and Healing"; 000 "Health Chart", "Torpor").

- Feeding (:func:`drain`): each Blood Trait drained from a mortal or ghoul costs the victim a
  level of lethal damage, at most three a turn (LotNR "Blood"; met-reference 3.7). The drinker
  drinks no more than his pool holds (LotNR generation table, met-reference 5.1): the victim
  loses, and is wounded for, only what is drunk, and a full pool drinks nothing (the setting
  ``drain_past_full_pool`` lets him drain on and lose the rest). Drained from a vampire, the
  Blood Traits leave his pool and do him no wound.
- Blood given (:func:`give_blood`): an incapacitated, unconscious or torpid vampire swallows
  blood placed in his mouth until his pool is full (002); an active one simply feeds.
- No blood left (:func:`call_for_blood`): a vampire with an empty pool loses a health level
  each time the rules call for blood (rising at sunset, a Discipline, healing); past
  Incapacitated that way she falls into torpor from blood loss (000 "Health Chart": an
  incapacitated vampire with no blood enters torpor; 000 "Torpor"; met-reference 4.1). The
  level's kind is the setting ``empty_pool_wound`` (lethal by default).

Every function is pure: the old track and pools in, the new ones and the steps out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import ceil

from larp.rules.explain import (N_, Explanation, Phrase, RulesError, Step, blood_points, blood_traits, phrase_step,
                                plural, turns as turns_of)
from larp.rules.healing import swallow_blood
from larp.rules.health import HealthTrack, apply_damage, standing
from larp.rules.settings import ChronicleSettings

#: Blood Traits a vampire drains from a victim in one turn (LotNR "Blood"; met-reference 3.7).
DRAIN_PER_TURN = 3
#: Why the rules call for blood (the narrator's tap names one).
BLOOD_CALLS = {"rising": "rising at sunset", "discipline": "a Discipline", "healing": "healing",
               "other": "the rules"}
#: What calls for blood, as a ruling says it (:data:`BLOOD_CALLS`), first at the start of a sentence
#: (``str.capitalize``, as written before: "A discipline") then mid-sentence, in the reader's language.
_CALLS_SAID = {"rising": (N_("Rising at sunset"), N_("rising at sunset")),
               "discipline": (N_("A discipline"), N_("a Discipline")),
               "healing": (N_("Healing"), N_("healing")), "other": (N_("The rules"), N_("the rules"))}


def blood_call_said(reason: str, start: bool = False) -> Phrase:
    """What calls for blood (``reason``, a key of :data:`BLOOD_CALLS`) as a phrase: at the ``start`` of a
    sentence or mid-sentence."""
    return Phrase.message(_CALLS_SAID[reason][0 if start else 1])


def health_levels(count: int) -> Phrase:
    """"1 health level", "2 health levels", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s health level", "%(n)s health levels")

_FEEDING = 'LotNR "Blood" (met-reference 3.7)'
_POOL = "LotNR generation table (met-reference 5.1)"
_EMPTY = '000 "Health Chart", "Torpor"; LotNR Health (met-reference 4.1)'


def _count(value: int, field: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise RulesError(Phrase.message(N_("Give a whole number of blood points, at least %(low)s."), low=low),
                         field=field)
    return value


@dataclass(frozen=True)
class Drain:
    """A vampire's feeding on a victim.

    Attributes:
        drained: Blood Traits taken from the victim.
        taken: of those, the Blood Traits the drinker's pool holds (the rest is lost).
        turns: combat turns the drain takes, at three Blood Traits a turn.
        victim_track: the victim's track afterwards (a mortal or ghoul: a lethal level a Blood Trait).
        victim_blood: the victim's tracked pool afterwards (``None`` when not tracked).
        steps: the explanation.
        asked: the Blood Traits the narrator asked for (more than ``drained`` when the pool had no
            room for them all).
    """

    drained: int
    taken: int
    turns: int
    victim_track: HealthTrack
    victim_blood: int | None
    steps: tuple[Step, ...]
    asked: int = 0


def drain_that_kills(victim: HealthTrack, settings: ChronicleSettings | None = None, most: int = 10) -> int | None:
    """The fewest Blood Traits whose drain kills ``victim`` (a mortal or ghoul: each one drained is a level of lethal
    damage, and a wound past Incapacitated kills, LotNR "Blood", 000 "Health"), as :func:`apply_damage` marks them;
    ``None`` for a vampire (his blood leaves no wound), a victim already dead or not active, or when more than
    ``most`` would be needed. What the feeding form says beside each victim, so that a narrator sees the drain that
    kills before he taps it."""
    if victim.is_vampire or victim.condition != "active":
        return None
    start = max(1, len(victim.levels) - victim.marked - 1)  # no fewer can reach past Incapacitated
    for count in range(start, most + 1):
        if apply_damage(victim, "lethal", count, "", settings).track.condition == "dead":
            return count
    return None


def drain(victim: HealthTrack, blood: int, drinker_blood: int, drinker_max: int, *, victim_blood: int | None = None,
          settings: ChronicleSettings | None = None, drinker: str = "The vampire",
          victim_name: str = "The victim") -> Drain:
    """``drinker`` drains ``blood`` Blood Traits from ``victim`` (LotNR "Blood"; met-reference 3.7).

    He drinks no more than his pool holds (LotNR generation table, met-reference 5.1): asked for
    more than it has room for, he drinks what fits and the victim loses, and is wounded for, only
    that; a full pool drinks nothing. Under the setting ``drain_past_full_pool`` he drains all that
    was asked and what his pool does not hold is lost.

    Args:
        victim: the victim's track (his creature says how the drain hurts him).
        blood: Blood Traits asked for, at least 1.
        drinker_blood, drinker_max: the drinker's pool and its maximum (blood points).
        victim_blood: the victim's pool when it is tracked (ghouls, vampires); ``None`` for a
            mortal's blood, which only his wounds count.

    Raises:
        RulesError: fewer than one Blood Trait, a destroyed victim, a vampire victim with too little
            blood, impossible pools, a full pool (unless ``drain_past_full_pool``).
    """
    settings = settings or ChronicleSettings.defaults()
    _count(blood, "blood")
    if min(drinker_blood, drinker_max) < 0 or drinker_blood > drinker_max:
        raise RulesError(Phrase.message(N_("The drinker's pool must be at least 0 and no more than its maximum.")),
                         field="blood")
    if victim.destroyed:
        raise RulesError(Phrase.message(N_("%(victim_name)s is dead: there is no blood to drink."),
                                        victim_name=victim_name), field="victim")
    room = max(0, drinker_max - drinker_blood)
    asked = blood
    steps = Explanation()
    if not settings["drain_past_full_pool"]:
        if room == 0:
            raise RulesError(Phrase.message(N_("%(name)s's blood pool is already full (%(most)s blood points): there "
                                               "is no room to drink from %(victim)s."),
                                            name=drinker, most=drinker_max, victim=victim_name), field="blood")
        blood = min(blood, room)
        if blood < asked:
            steps.add(N_("%(name)s's pool has room for %(room)s: %(blood)s drunk, not the %(asked)s asked, and "
                         "%(victim)s loses only what is drunk."), _POOL, "drain_past_full_pool", name=drinker,
                      room=blood_points(room), blood=blood_traits(blood), asked=asked, victim=victim_name)
    turns = ceil(blood / DRAIN_PER_TURN)
    steps.add(N_("%(name)s drains %(blood)s from %(victim)s: at most %(most)s a turn, %(turns)s."), _FEEDING,
              name=drinker, blood=blood_traits(blood), victim=victim_name, most=DRAIN_PER_TURN, turns=turns_of(turns))
    track = victim
    left = victim_blood
    if victim.is_vampire:
        have = victim_blood or 0
        if blood > have:
            raise RulesError(Phrase.message(N_("%(name)s has only %(blood)s to drink."), name=victim_name,
                                            blood=blood_points(have)), field="blood")
        left = have - blood
        steps.add(N_("%(victim)s is a vampire: the Blood Traits leave his pool (%(left)s left) and do him no wound."),
                  _FEEDING, victim=victim_name, left=left)
    else:
        steps.add(N_("Each Blood Trait drained costs %(victim)s a level of lethal damage: %(blood)s lethal."),
                  _FEEDING, victim=victim_name, blood=blood)
        hurt = apply_damage(victim, "lethal", blood, victim_name, settings)
        steps.extend(hurt.steps[1:])
        track = hurt.track
        if victim_blood is not None:
            left = max(0, victim_blood - blood)
    taken = min(room, blood)
    if taken < blood:
        steps.add(N_("%(name)s's pool: %(pool)s of %(most)s blood points (full: %(lost)s more than it holds are lost)."),
                  _POOL, "drain_past_full_pool", name=drinker, pool=drinker_blood + taken, most=drinker_max,
                  lost=blood_traits(blood - taken))
    else:
        steps.add(N_("%(name)s's pool: %(pool)s of %(most)s blood points."), _POOL, name=drinker,
                  pool=drinker_blood + taken, most=drinker_max)
    return Drain(blood, taken, turns, track, left, steps.steps(), asked)


@dataclass(frozen=True)
class GivenBlood:
    """Blood given to a vampire: his pool afterwards and the steps."""

    blood_current: int
    taken: int
    steps: tuple[Step, ...]


def give_blood(track: HealthTrack, blood_current: int, blood_max: int, offered: int,
               who: str = "The vampire") -> GivenBlood:
    """Blood given to a vampire: helpless (incapacitated, unconscious, torpid) he swallows it until
    his pool is full (002 "Damage and Healing"); active, he feeds up to his pool's maximum
    (LotNR generation table, met-reference 5.1).

    Raises:
        RulesError: not a vampire, destroyed, staked while active (000 "Stake Through Heart"), a full
            pool while active, fewer than one blood point, impossible pools.
    """
    _count(offered, "blood")
    helpless = track.condition in ("unconscious", "torpor") or track.marked >= track.size - 1
    if track.is_vampire and helpless:
        fed = swallow_blood(track, blood_current, blood_max, offered, who)
        return GivenBlood(fed.blood_current, fed.swallowed, fed.steps)
    if track.destroyed:
        raise RulesError(Phrase.message(N_("%(who)s cannot feed any more."), who=who), field="action")
    if not track.is_vampire:
        raise RulesError(Phrase.message(N_("%(who)s is not a vampire."), who=who), field="creature")
    if track.staked:
        raise RulesError(Phrase.message(N_("%(who)s is staked and paralysed: he cannot feed until the stake is "
                                           "removed (000 \"Stake Through Heart\")."), who=who), field="action")
    room = max(blood_max - blood_current, 0)
    if room == 0:
        raise RulesError(Phrase.message(N_("%(who)s's blood pool is already full (%(blood_max)s blood points)."),
                                        who=who, blood_max=blood_max), field="blood")
    taken = min(room, offered)
    step = phrase_step(N_("%(name)s feeds: %(blood)s, pool %(pool)s of %(most)s."), _POOL, name=who,
                       blood=blood_points(taken), pool=blood_current + taken, most=blood_max)
    return GivenBlood(blood_current + taken, taken, (step,))


@dataclass(frozen=True)
class BloodCall:
    """The rules called for blood.

    Attributes:
        spent: blood points paid from the pool.
        levels_lost: health levels lost for each blood point the pool did not hold.
        blood_current: the pool afterwards.
        track: the track afterwards.
        blood_loss_torpor: the call put her into torpor from blood loss.
        steps: the explanation.
    """

    spent: int
    levels_lost: int
    blood_current: int
    track: HealthTrack
    blood_loss_torpor: bool
    steps: tuple[Step, ...]


def call_for_blood(track: HealthTrack, blood_current: int, needed: int, reason: str,
                   settings: ChronicleSettings | None = None, who: str = "The vampire") -> BloodCall:
    """The rules call for ``needed`` blood points (``reason``: a key of ``BLOOD_CALLS``).

    The pool pays what it holds; each blood point it does not hold costs a health level of the
    kind ``empty_pool_wound`` says; a level lost below Incapacitated this way puts the vampire into
    torpor from blood loss, whatever the kind (000 "Health Chart", "Torpor"; met-reference 4.1).

    Raises:
        RulesError: not a vampire, destroyed, in torpor (a torpid vampire ignores the nightly need for
            blood and may not spend it, 000 "Torpor"), staked, an unknown reason, fewer than one point.
    """
    settings = settings or ChronicleSettings.defaults()
    _count(needed, "blood")
    if reason not in BLOOD_CALLS:
        raise RulesError(Phrase.message(N_("Why is blood called for? %(value)s."), value=', '.join(BLOOD_CALLS)),
                         field="reason")
    if track.destroyed:
        raise RulesError(Phrase.message(N_("%(who)s is destroyed."), who=who), field="track")
    if not track.is_vampire:
        raise RulesError(Phrase.message(N_("%(who)s is not a vampire."), who=who), field="creature")
    if track.condition == "torpor":
        raise RulesError(Phrase.message(N_("%(who)s is in torpor: she needs no blood and may spend none (000 "
                                           "\"Torpor\")."), who=who),
                         field="condition")
    if track.staked:
        raise RulesError(Phrase.message(N_("%(who)s is staked and may not spend blood points."), who=who),
                         field="staked")
    steps = Explanation()
    spent = min(blood_current, needed)
    missing = needed - spent
    steps.add(N_("%(why)s calls for %(blood)s; %(name)s has %(n)s."), _EMPTY, why=blood_call_said(reason, start=True),
              blood=blood_points(needed), name=who, n=blood_current)
    if spent:
        steps.add(N_("%(name)s spends %(blood)s (%(left)s left)."), _POOL, name=who, blood=blood_points(spent),
                  left=blood_current - spent)
    new = track
    torpor = False
    if missing:
        kind = settings["empty_pool_wound"]
        room = track.size - track.marked
        marked = min(room, missing)
        counts = {"bashing": track.bashing, "lethal": track.lethal}
        counts[kind] += marked
        new = replace(track, **counts)
        steps.add(N_("Her pool is empty: %(levels)s lost instead, marked as %(kind)s."), _EMPTY, "empty_pool_wound",
                  levels=health_levels(missing), kind=Phrase.term(kind))
        if new.below_incapacitated:
            torpor = True
            new = replace(new, condition="torpor")
            steps.add(N_("Past Incapacitated for want of blood, %(name)s falls into torpor from blood loss."), _EMPTY,
                      name=who)
            if settings["feeding_wakes_blood_torpor"]:
                steps.add(Phrase.message(N_("Fed a blood point, she rises whatever her rating.")),
                          '000 "Torpor"; 001 "Torpor"',
                          setting="feeding_wakes_blood_torpor")
        else:
            steps.add(N_("%(name)s is now %(level)s."), "LotNR Health (met-reference 4.1)", name=who,
                      level=standing(new))
    return BloodCall(spent, missing, blood_current - spent, new, torpor, steps.steps())
