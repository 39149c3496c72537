"""The bids: the first phase of a challenge. The script's setup is checked, each side is
opened with the Traits it must risk (Wounded, Negative Traits, the off hand, a narrator's
difficulty) and the Traits it bids, darkness is set, the Traits each side counts are added
up, and a side may relent (met-reference 1.1, 1.3, 1.4, 3.3-3.5, 3.8, 4.1; seed 002
"Challenges", "Ties", "Darkness").

Part of :mod:`larp.rules.challenge`: :func:`place_bids` opens the :class:`.state.ChallengeState`
the later phases play on.
"""

from __future__ import annotations

from collections import Counter

from larp.rules.challenge.script import ACTIONS, Challenge, Contestant
from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.totals import count_traits, tie_standing
from larp.rules.challenge.types import (
    POTENCE_TRAIT,
    R_BOMB,
    R_DARK,
    R_DARK_DE,
    R_ENDURANCE,
    R_HEALTH,
    R_INTENSITY,
    R_NEGATIVE,
    R_OFF_HAND,
    R_RELENT,
    R_STATIC,
    R_WOUNDS_OLD,
    R_FRENZY,
    SIDES,
    Category,
    Health,
    Kind,
    Lead,
    Outcome,
    Power,
    RandomSource,
    other_side,
)
from larp.rules.darkness import DarknessLevel, DarknessSource, ability_named, darkness_effect
from larp.rules.explain import N_, NARRATOR, Explanation, Phrase, RulesError, traits
from larp.rules.health import DAMAGE_TYPES
from larp.rules.senses import sense_named
from larp.rules.settings import ChronicleSettings


def bomb_power(challenge: Challenge, side: Outcome, surprised: bool, announced: bool = False) -> str:
    """The power that gives ``side`` the Bomb here, or ``""``: Vigor in a strength challenge, Rapidity
    in a speed challenge (not for a surprised defender: no Celerity, LotNR Surprise), and only once
    announced before the challenge (LotNR Vigor and Rapidity, met-reference 1.2)."""
    con = challenge.challenger if side is Outcome.CHALLENGER else challenge.defender
    if con is None or challenge.category is not Category.PHYSICAL or not (con.bomb_announced or announced):
        return ""
    if Power.VIGOR in con.powers and con.lead is Lead.STRENGTH:
        return "Vigor"
    if Power.RAPIDITY in con.powers and con.lead is Lead.SPEED and not (side is Outcome.DEFENDER and surprised):
        return "Rapidity"
    return ""


def place_bids(challenge: Challenge, settings: ChronicleSettings, rng: RandomSource | None = None,
               bids_only: bool = False) -> ChallengeState:
    """Open a challenge: check its setup and each side's bid, and count what each side claims.

    Each side risks one Trait of the category (none in a Virtue Test), plus one if Wounded
    (Bruised too under ``wound_penalty_model = old_met``), one per Negative Trait rightly
    called on it or wrongly called by it (``negative_trait_unmatched`` when it cannot add
    one), two for the off hand (Ambidextrous, Two-Weapon) and a narrator's extra difficulty
    (LotNR Initial Bid, Negative Traits, off hand; met-reference 1.1, 1.4, 3.8). A side may
    relent before the test and loses the challenge but no Traits (LotNR Relenting). Darkness
    applies per ``darkness_scope`` (002 "Darkness").

    Args:
        challenge: the script; its tests are played by the later phases.
        settings: the chronicle's settings.
        rng: the random source for the narrator's throws left out of the tests.
        bids_only: stop once the Traits each side must bid are known (no bid is checked, no step
            is written: the explanation is the full opening's).

    Returns:
        The state before the first test.

    Raises:
        RulesError: a setup the rules cannot adjudicate, naming the field (an unknown
            category or action, a contested challenge without a defender, a wrong number of
            Traits bid, a Trait lost earlier, both sides relenting...).
    """
    _check_script(challenge)
    state = ChallengeState(challenge, settings, rng, steps=_Unwritten() if bids_only else Explanation())
    if not bids_only:
        _header(state)
    state.sides[Outcome.CHALLENGER] = _contestant(state, Outcome.CHALLENGER, challenge.challenger)
    if challenge.defender is not None:
        state.sides[Outcome.DEFENDER] = _contestant(state, Outcome.DEFENDER, challenge.defender)
    else:
        state.sides[Outcome.DEFENDER] = SideState(Outcome.DEFENDER, None, NARRATOR, challenge.category,
                                                  required=0, total=challenge.difficulty or 0)
    _announcements(state)
    for side in state.characters():
        _requirements(state, side)
    _negative_calls(state)
    if bids_only:
        return state
    for side in state.characters():
        _check_bid(state, side)
    _darkness(state)
    for side in state.characters():
        count_traits(state, side)
        tie_standing(state, side)
    _relent(state)
    return state


class _Unwritten(Explanation):
    """The explanation of an opening that only counts the bids (``bids_only``): nobody reads it, so
    no sentence is made (a stateless ruling opens its challenge twice, issue 29 item 6)."""

    def add(self, text: str, rule: str, setting: str | None = None, **params: object) -> None:
        """Write nothing."""

    def extend(self, steps: object) -> None:
        """Write nothing."""


def _check_script(ch: Challenge) -> None:
    """The setup's own checks: kind, category, actions, defender, difficulty (met-reference 1.6)."""
    if not isinstance(ch.category, Category):
        raise RulesError(Phrase.message(N_("Unknown category %(category)s."), category=repr(ch.category)),
                         field="category")
    for key, value in (("action", ch.action), ("defender_action", ch.defender_action)):
        if value not in ACTIONS:
            raise RulesError(Phrase.message(N_("Unknown action %(value)s (known: %(value2)s)."),
                                            value=repr(value), value2=', '.join(ACTIONS)), field=key)
    if ch.kind is Kind.CONTESTED:
        if ch.defender is None:
            raise RulesError(Phrase.message(N_("A contested challenge needs a defender.")), field="defender")
        if ch.difficulty is not None:
            raise RulesError(Phrase.message(N_("Only a static challenge has a difficulty.")), field="difficulty")
        if ch.category is Category.VIRTUE:
            raise RulesError(Phrase.message(N_("A Virtue Test is a static challenge against the stimulus.")), field="kind")
    else:
        if ch.defender is not None:
            raise RulesError(Phrase.message(N_("A %(kind)s challenge is against a narrator: leave out the defender."),
                                            kind=ch.kind.value),
                             field="defender")
        if ACTIONS[ch.action]["attack"]:
            raise RulesError(Phrase.message(N_("A %(kind)s challenge has no opponent to hit: use the action "
                                               "'other'."), kind=ch.kind.value),
                             field="action")
        if ch.surprised or ch.negative_calls:
            raise RulesError(Phrase.message(N_("Surprise and Negative Trait calls need two characters.")),
                             field="surprised" if ch.surprised else "negative_calls")
    if ch.kind is Kind.STATIC:
        if isinstance(ch.difficulty, bool) or not isinstance(ch.difficulty, int) or ch.difficulty < 0:
            raise RulesError(Phrase.message(N_("A static challenge needs a difficulty of at least 0 Traits.")), field="difficulty")
    elif ch.kind is Kind.SIMPLE:
        if ch.difficulty is not None:
            raise RulesError(Phrase.message(N_("A simple test compares no Traits: no difficulty.")), field="difficulty")
        if ch.category is Category.VIRTUE:
            raise RulesError(Phrase.message(N_("A Virtue Test is a static challenge against the stimulus.")), field="kind")
    for key, con in ((Outcome.CHALLENGER, ch.challenger), (Outcome.DEFENDER, ch.defender)):
        if con is not None and not isinstance(con, Contestant):
            raise RulesError(Phrase.message(N_("The %(key)s is missing."), key=key.value), field=key.value)
        if con is not None and (not isinstance(con.acute_senses, frozenset)
                                or any(sense_named(s, f"{key.value}_acute_senses") != s for s in con.acute_senses)):
            raise RulesError(Phrase.message(N_("%(key)s: give the senses of Acute Sense by name (sight, "
                                               "hearing...)."), key=key.value.capitalize()),
                             field=f"{key.value}_acute_senses")
    if sense_named(ch.sense) != ch.sense:
        raise RulesError(Phrase.message(N_("Name the sense by its key (%(value)s)."),
                                        value=repr(sense_named(ch.sense))), field="sense")


def _header(state: ChallengeState) -> None:
    ch, c = state.challenge, state.challenge.challenger
    action = ACTIONS[ch.action]

    def bids(con: Contestant) -> Phrase:
        if con.relent and not con.bid:
            return Phrase.message(N_("%(name)s relents"), name=con.name)
        if con.risks_no_trait or not con.bid:
            return Phrase.message(N_("%(name)s risks no Trait") if con.risks_no_trait else N_("%(name)s bids no Trait"),
                                  name=con.name)
        return Phrase.message(N_("%(name)s bids %(traits)s"), name=con.name, traits=", ".join(con.bid))

    if ch.kind is Kind.CONTESTED:
        d = ch.defender
        assert d is not None
        params = dict(challenger=c.name, defender=d.name, category=Phrase.term(ch.category.label),
                      action=Phrase.term(action["label"].lower()), challenger_bid=bids(c), defender_bid=bids(d))
        if ch.defender_action != "defend":
            state.steps.add(N_("%(challenger)s challenges %(defender)s (%(category)s): %(action)s. "
                               "%(challenger_bid)s; %(defender_bid)s. %(defender)s answers: %(answer)s."),
                            '002 "Challenges"', answer=Phrase.term(ACTIONS[ch.defender_action]["label"].lower()),
                            **params)
        else:
            state.steps.add(N_("%(challenger)s challenges %(defender)s (%(category)s): %(action)s. "
                               "%(challenger_bid)s; %(defender_bid)s."), '002 "Challenges"', **params)
    elif ch.kind is Kind.STATIC:
        state.steps.add(N_("%(name)s makes a static %(category)s challenge against a difficulty of "
                           "%(difficulty)s Traits; %(bid)s."), R_STATIC, name=c.name,
                        category=Phrase.term(ch.category.label), difficulty=ch.difficulty, bid=bids(c))
    elif ch.needs_win:
        state.steps.add(N_("%(name)s makes a simple test against a narrator (the effect needs an outright win)."),
                        R_STATIC, name=c.name)
    else:
        state.steps.add(N_("%(name)s makes a simple test against a narrator."), R_STATIC, name=c.name)


def _announcements(state: ChallengeState) -> None:
    """The Bomb exists only when announced before the challenge (LotNR Vigor: "You must state
    before the Physical Challenge that you can use it"; Rapidity, met-reference 1.2)."""
    ch = state.challenge
    for side in state.characters():
        if not side.con.bomb_announced:
            continue
        power = bomb_power(ch, side.key, ch.surprised and not state.surprise_over, announced=True)
        if power:
            state.steps.add(N_("%(name)s announces before the challenge that %(name)s can throw the Bomb "
                               "(%(power)s)."), R_BOMB, name=side.name, power=power)
        else:
            state.steps.add(N_("%(name)s announces the Bomb, but it needs Vigor in a strength challenge or "
                               "Rapidity in a speed challenge: no Bomb in this one."), R_BOMB, name=side.name)


def _check_numbers(con: Contestant, name: str, p: str) -> None:
    """Every count on the side is a whole number of at least 0."""
    for attr in ("traits", "willpower", "steps_moved", "extra_bid"):
        value = getattr(con, attr)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(Phrase.message(N_("%(name)s: %(attr)s must be a whole number of at least 0."),
                                            name=name, attr=attr), field=f"{p}_{attr}")
    for attr in ("abilities", "merits"):
        for item, value in getattr(con, attr).items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(Phrase.message(N_("%(name)s: %(item)s must have a whole number of at least 0 left."),
                                                name=name, item=item),
                                 field=f"{p}_{attr}")
    if not isinstance(con.specialisation, (str, bool)):
        raise RulesError(Phrase.message(N_("%(name)s: name the Ability of the specialisation."), name=name),
                         field=f"{p}_specialisation")
    for attr in ("bonuses", "penalties"):
        for mod in getattr(con, attr):
            if isinstance(mod.traits, bool) or not isinstance(mod.traits, int) or mod.traits < 0:
                raise RulesError(Phrase.message(N_("%(name)s: %(source)s must be a whole number of Traits."),
                                                name=name, source=mod.source), field=f"{p}_{attr}")
    for power in con.powers:
        if not isinstance(power, Power):
            raise RulesError(Phrase.message(N_("%(name)s: unknown power %(power)s."), name=name, power=repr(power)),
                             field=f"{p}_powers")
    if isinstance(con.celerity, bool) or not isinstance(con.celerity, int) or not 0 <= con.celerity <= 5:
        raise RulesError(Phrase.message(N_("%(name)s: the Celerity active this turn is a level from 0 to 5."),
                                        name=name), field=f"{p}_celerity")


def _check_traits_held(con: Contestant, name: str, p: str, category: Category) -> None:
    """The Traits held, lost earlier and declared agree with the count (LotNR ties, met-reference 1.3)."""
    if con.held or con.lost_earlier:
        held, lost = Counter(con.held), Counter(con.lost_earlier)
        if lost - held:
            raise RulesError(Phrase.message(N_("%(name)s cannot have lost %(value)s: not among the Traits held."),
                                            name=name, value=', '.join(sorted((lost - held).elements()))),
                             field=f"{p}_lost_earlier")
        left = sum((held - lost).values())
        if left != con.traits:
            raise RulesError(Phrase.message(N_("%(name)s has %(n)s %(category)s Traits left after those lost earlier "
                                               "this game session, not %(traits)s."), name=name, n=left,
                                            category=Phrase.term(category.label), traits=con.traits),
                             field=f"{p}_traits")
    if con.declared is not None:
        if isinstance(con.declared, bool) or not isinstance(con.declared, int) or con.declared < 0:
            raise RulesError(Phrase.message(N_("%(name)s: declared Traits must be a whole number."), name=name),
                             field=f"{p}_declared")
        if con.declared > con.traits:
            raise RulesError(Phrase.message(N_("%(name)s may under-declare but never over-declare: %(declared)s "
                                               "declared, %(held)s held (LotNR ties, met-reference 1.3)."),
                                            name=name, declared=con.declared, held=con.traits),
                             field=f"{p}_declared")


def _contestant(state: ChallengeState, key: Outcome, con: Contestant) -> SideState:
    p = key.value
    ch = state.challenge
    name = con.name.strip() if isinstance(con.name, str) else ""
    if not name:
        raise RulesError(Phrase.message(N_("The %(value)s needs a name."), value=p), field=f"{p}_name")
    _check_numbers(con, name, p)
    category = con.category or ch.category
    action = ch.action if key is Outcome.CHALLENGER else ch.defender_action
    if category is not ch.category and action != "weapon":
        raise RulesError(Phrase.message(N_("%(name)s: only an attacker with a weapon may bid from another category "
                                           "(LotNR Bidding Weapon Traits)."), name=name), field=f"{p}_category")
    if action == "weapon" and con.weapon is None:
        raise RulesError(Phrase.message(N_("%(name)s attacks with a weapon: give its card."), name=name),
                         field=f"{p}_weapon")
    if con.weapon is not None:
        w = con.weapon
        if w.damage_type not in DAMAGE_TYPES or isinstance(w.levels, bool) or not isinstance(w.levels, int) \
                or w.levels < 1 or isinstance(w.bonus, bool) or not isinstance(w.bonus, int) or w.bonus < 0:
            raise RulesError(Phrase.message(N_("%(name)s: the weapon %(name2)s needs bonus Traits (0+), a damage "
                                               "type (bashing, lethal, aggravated) and at least 1 level."),
                                            name=name, name2=w.name), field=f"{p}_weapon")
    _check_traits_held(con, name, p, category)
    if con.health is Health.INCAPACITATED and Power.ENDURANCE not in con.powers:
        raise RulesError(Phrase.message(N_("%(name)s is Incapacitated and takes part in no challenge until a health "
                                           "level is healed (LotNR Health, met-reference 4.1)."), name=name),
                         field=f"{p}_health")
    if con.steps_moved > 3 and category is Category.PHYSICAL:
        raise RulesError(Phrase.message(N_("%(name)s can move at most three steps and still act (LotNR three-step "
                                           "rule)."), name=name),
                         field=f"{p}_steps_moved")
    health = con.health
    if con.frenzy not in ("", "frenzy", "rotschreck"):
        raise RulesError(Phrase.message(N_("%(name)s: frenzy is frenzy, rotschreck or none."), name=name),
                         field=f"{p}_frenzy")
    if con.frenzy == "frenzy" and health in (Health.BRUISED, Health.WOUNDED):
        state.steps.add(N_("%(name)s is in frenzy and suffers no wound penalty (%(level)s)."), R_FRENZY, name=name,
                        level=Phrase.term(health.value.capitalize()))
        return SideState(key, con, name, category, health=Health.HEALTHY)
    if health is Health.WOUNDED and Power.ENDURANCE in con.powers:
        health = Health.BRUISED
        state.steps.add(N_("%(name)s is Wounded but has Endurance: only the Bruised penalty applies."), R_ENDURANCE,
                        name=name)
    elif health is Health.INCAPACITATED and Power.ENDURANCE in con.powers:
        # met-reference 3.5: "When Wounded or Incapacitated you just take the Bruised penalty"
        health = Health.BRUISED
        state.steps.add(N_("%(name)s is Incapacitated but has Endurance: only the Bruised penalty applies."),
                        R_ENDURANCE, name=name)
    return SideState(key, con, name, category, health=health)


def _requirements(state: ChallengeState, side: SideState) -> None:
    con = side.con
    assert con is not None
    ch, settings = state.challenge, state.settings
    if ch.kind is Kind.SIMPLE:
        side.required = None  # a simple test usually has no bid; any Traits bid are at risk
        return
    if con.relent:
        side.required = None
        return
    if con.risks_no_trait:
        side.required = 0  # a test, not a challenge: nothing is risked (002 "Firing Guns into Groups of People")
        return
    if con.frenzy == "frenzy" and side.key is Outcome.DEFENDER and ch.category is Category.SOCIAL and not con.bid:
        side.required = 0
        state.steps.add(N_("%(name)s is in frenzy and need not risk a Trait when someone starts a Social challenge "
                           "against %(name)s."), R_FRENZY, name=side.name)
        return
    required = 0 if ch.category is Category.VIRTUE else 1
    if con.extra_bid:
        required += con.extra_bid
        state.steps.add(N_("The narrator's difficulty makes %(name)s risk %(traits)s more."), R_STATIC,
                        name=side.name, traits=traits(con.extra_bid))
    if ch.category is not Category.VIRTUE:
        model = settings["wound_penalty_model"]
        if side.health is Health.WOUNDED or (model == "old_met" and side.health is Health.BRUISED):
            required += 1
            state.steps.add(N_("%(name)s is %(level)s and must risk one more Trait."),
                            R_HEALTH if model == "lotnr" else R_WOUNDS_OLD, "wound_penalty_model", name=side.name,
                            level=Phrase.term(side.health.value.capitalize()))
    required += _hands(state, side)
    side.required = required
    potence = con.bid.count(POTENCE_TRAIT)
    if potence:
        any_lead = ch.mass and settings["intensity_in_mobs"] == "any"
        if not (Power.INTENSITY in con.powers and ch.category is Category.PHYSICAL
                and (con.lead is Lead.STRENGTH or any_lead)):
            raise RulesError(Phrase.message(N_("%(name)s may bid %(trait)s only with Intensity, in a strength "
                                               "challenge (LotNR Potence)."), name=side.name, trait=POTENCE_TRAIT),
                             field=f"{side.prefix}_bid")
        if potence > 1:
            raise RulesError(Phrase.message(N_("%(name)s may bid %(trait)s once."), name=side.name, trait=POTENCE_TRAIT),
                             field=f"{side.prefix}_bid")
        side.potence = True


def _hands(state: ChallengeState, side: SideState) -> int:
    """The extra Traits the hands cost: the off hand two, none with Ambidextrous (but two a hand,
    so one more, for a character fighting with both hands), one fewer with the Two-Weapon
    (Florentine) specialisation (LotNR off hand, met-reference 3.8)."""
    con = side.con
    if con.ambidextrous and con.both_hands:
        extra, text = 1, N_("%(name)s is Ambidextrous, but fighting with both hands costs two Traits a hand")
    elif con.ambidextrous and con.off_hand:
        state.steps.add(N_("%(name)s is Ambidextrous: no off-hand penalty."), R_OFF_HAND, name=side.name)
        return 0
    elif con.off_hand:
        extra, text = 2, N_("%(name)s uses the off hand")
    else:
        return 0
    said = Phrase.message(text, name=side.name)
    if con.two_weapon:
        extra -= 1
        said = Phrase.message(N_("%(hands)s; the Two-Weapon (Florentine) specialisation removes one penalty Trait"),
                              hands=said)
    more = {0: N_("no more Traits risked"), 1: N_("one more Trait risked"), 2: N_("two more Traits risked")}[extra]
    state.steps.add(N_("%(hands)s: %(more)s."), R_OFF_HAND, hands=said, more=Phrase.message(more))
    return extra


def _real_required(side: SideState) -> int:
    return (side.required or 0) - (1 if side.potence else 0)


def _negative_calls(state: ChallengeState) -> None:
    """Each Negative Trait call makes its payer risk one more Trait, or, when it cannot, per
    ``negative_trait_unmatched`` (LotNR Negative Traits, met-reference 1.4)."""
    mode = state.settings["negative_trait_unmatched"]
    for index, call in enumerate(state.challenge.negative_calls):
        where = f"negative_calls[{index}]"
        if call.by not in SIDES:
            raise RulesError(Phrase.message(N_("A Negative Trait call is made by the challenger or the defender.")), field=where)
        if not isinstance(call.trait, str) or not call.trait.strip():
            raise RulesError(Phrase.message(N_("Name the Negative Trait called.")), field=where)
        caller = state.sides[call.by]
        payer = state.sides[other_side(call.by)] if call.correct else caller
        other = state.sides[other_side(payer.key)]
        if payer.required is None:
            continue  # a relenting side risks nothing
        if call.correct:
            text = Phrase.message(N_("%(caller)s calls %(trait)s on %(payer)s, rightly"), caller=caller.name,
                                  trait=call.trait, payer=payer.name)
        else:
            text = Phrase.message(N_("%(caller)s calls %(trait)s, which %(other)s does not have"),
                                  caller=caller.name, trait=call.trait, other=other.name)
        if _real_required(payer) + 1 <= payer.con.traits:
            payer.required += 1
            state.steps.add(N_("%(call)s: %(payer)s must risk one more Trait."), R_NEGATIVE, call=text,
                            payer=payer.name)
            continue
        payer.unmatched += 1
        if mode == "automatic_loss":
            state.steps.add(N_("%(call)s, and %(payer)s has no Trait left to add: %(payer)s loses the challenge."),
                            R_NEGATIVE, "negative_trait_unmatched", call=text, payer=payer.name)
            if state.auto_winner is None:
                state.auto_winner = other.key
        elif payer.unmatched == 1:
            other.bid_safe = True
            state.steps.add(N_("%(call)s, and %(payer)s has no Trait left to add: %(other)s's bid is no "
                               "longer at risk."), R_NEGATIVE, "negative_trait_unmatched", call=text,
                            payer=payer.name, other=other.name)
        else:
            other.neg_bonus += 1
            state.steps.add(N_("%(call)s, and %(payer)s still cannot add a Trait: %(other)s gains one "
                               "Trait for ties and overbids."), R_NEGATIVE, "negative_trait_unmatched", call=text,
                            payer=payer.name, other=other.name)


def _check_bid(state: ChallengeState, side: SideState) -> None:
    con = side.con
    assert con is not None
    p = side.prefix
    bid = [b.strip() if isinstance(b, str) else b for b in con.bid]
    if any(not isinstance(b, str) or not b for b in bid):
        raise RulesError(Phrase.message(N_("%(name)s: a Trait bid has no name."), name=side.name), field=f"{p}_bid")
    if con.relent:
        return
    real = [b for b in bid if not (side.potence and b == POTENCE_TRAIT)]
    if side.required is not None and len(bid) != side.required:
        if not bid:
            raise RulesError(Phrase.message(N_("The challenger must bid a Trait.") if side.key is Outcome.CHALLENGER
                                            else N_("The defender must bid a Trait.")), field=f"{p}_bid")
        raise RulesError(Phrase.message(N_("%(name)s must risk %(traits)s here, not %(bid)s."), name=side.name,
                                        traits=traits(side.required), bid=len(bid)), field=f"{p}_bid")
    if len(real) > con.traits:
        raise RulesError(Phrase.message(N_("%(name)s has only %(n)s %(category)s Traits left and cannot bid %(bid)s."),
                                        name=side.name, n=con.traits, category=Phrase.term(side.category.label),
                                        bid=len(real)), field=f"{p}_bid")
    if con.held:
        free = Counter(con.held) - Counter(con.lost_earlier)
        for trait in real:
            if free[trait] < 1:
                why = (Phrase.message(N_("lost it earlier this game session")) if trait in con.lost_earlier
                       else Phrase.message(N_("does not have it")))
                raise RulesError(Phrase.message(N_("%(name)s cannot bid %(trait)s: %(why)s."), name=side.name,
                                                trait=trait, why=why), field=f"{p}_bid")
            free[trait] -= 1
        side.free = +free
    side.spare = con.traits - len(real)
    if side.potence:
        state.steps.add(N_("%(name)s bids %(trait)s with Intensity: it is never lost and does not count in ties."),
                        R_INTENSITY, name=side.name, trait=POTENCE_TRAIT)
    if side.bid_safe:
        side.at_risk = []
    else:
        side.at_risk = list(real)


def _darkness(state: ChallengeState) -> None:
    """Darkness per side, within ``darkness_scope``; both sides blind per
    ``both_blind_forced_retest`` (002 "Darkness"; Dark Epics p.71, met-reference 6.1)."""
    ch, settings = state.challenge, state.settings
    scope = settings["darkness_scope"]
    attack = ACTIONS[ch.action]["attack"] or ACTIONS[ch.defender_action]["attack"]
    in_scope = scope == "all" or (scope == "sight" and ch.needs_sight) or (
        scope == "combat" and ch.category is Category.PHYSICAL and attack)
    for side in state.characters():
        dark = side.con.darkness
        if not isinstance(dark.level, DarknessLevel) or not isinstance(dark.source, DarknessSource):
            raise RulesError(Phrase.message(N_("%(name)s: unknown darkness level or source."), name=side.name),
                             field=f"{side.prefix}_darkness")
        if dark.level is DarknessLevel.NONE:
            continue
        if not in_scope:
            state.steps.add(N_("%(name)s's darkness does not apply to this challenge (%(choice)s)."), R_DARK,
                            "darkness_scope", name=side.name, choice=Phrase.term(settings.label("darkness_scope")))
            continue
        if not any(step.setting == "darkness_scope" for step in state.steps.steps()):
            state.steps.add(N_("Darkness applies here (%(choice)s)."), R_DARK, "darkness_scope",
                            choice=Phrase.term(settings.label("darkness_scope")))
        side.dark = darkness_effect(dark, side.abilities_left(), settings, side.name, f"{side.prefix}_darkness")
        state.steps.extend(side.dark.steps)
        side.dark_forced = side.dark.forced_retest
        if dark.waive_retest and not dark.waived_this_turn:
            key = ability_named(side.con.abilities, dark.waive_retest)
            if key is None or side.con.abilities[key] < 1:
                raise RulesError(Phrase.message(N_("%(name)s has no %(ability)s level left to expend against the "
                                                   "forced retest."), name=side.name, ability=dark.waive_retest),
                                 field=f"{side.prefix}_darkness")
    c, d = state.sides[Outcome.CHALLENGER], state.sides[Outcome.DEFENDER]
    if c.dark_forced and d.dark_forced:
        label = settings.label("both_blind_forced_retest")
        if settings["both_blind_forced_retest"] == "no_retest":
            c.dark_forced = d.dark_forced = False
            state.steps.add(N_("Both sides suffer the same total darkness: no forced retest for either "
                               "(%(choice)s)."), R_DARK_DE, "both_blind_forced_retest", choice=Phrase.term(label))
        else:
            state.steps.add(N_("Both sides suffer total darkness: a success by either is still retested once "
                               "(%(choice)s)."), R_DARK, "both_blind_forced_retest", choice=Phrase.term(label))
    elif c.dark_forced or d.dark_forced:
        blind = c if c.dark_forced else d
        state.steps.add(N_("%(name)s is in total darkness: a success by %(name)s is retested once."), R_DARK,
                        name=blind.name)


def _relent(state: ChallengeState) -> None:
    relenting = [s for s in state.characters() if s.con.relent]
    if len(relenting) == 2:
        raise RulesError(Phrase.message(N_("Only one side can relent.")), field="defender_relent")
    if relenting:
        side = relenting[0]
        state.auto_winner = other_side(side.key)
        state.steps.add(N_("%(name)s relents before the test: %(name)s loses the challenge and no Traits."),
                        R_RELENT, name=side.name)
    if state.auto_winner is not None and state.challenge.tests:
        raise RulesError(Phrase.message(N_("No test is made: the challenge was decided before the test.")), field="tests")
