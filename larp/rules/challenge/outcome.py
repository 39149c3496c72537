"""The outcome: who won the challenge, the Traits each side loses for the game session, what it
spent, and the damage a won attack deals (before soak) (met-reference 1.3, 1.6, 3.1, 3.7;
seed 002 "Challenges", "Ties", "Damage and Healing").

Part of :mod:`larp.rules.challenge`: :func:`rule_outcome` is the last phase; it reads the
state and leaves it unchanged, so the options still open can be read from the same state.
"""

from __future__ import annotations

from larp.rules.challenge.ruling import ChallengeRuling, DamageDealt, Spent, TraitsLost
from larp.rules.challenge.script import ACTIONS
from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.types import (
    R_COMBAT,
    R_OUTCOME,
    R_SPEED,
    R_STATIC,
    R_SURPRISE,
    R_TIES,
    SIDES,
    Category,
    Kind,
    Outcome,
    other_side,
)
from larp.rules.darkness import ability_named
from larp.rules.explain import N_, Explanation, Phrase, RulesError, both, damage_levels
from larp.rules.order import alacrity_level

R_ALACRITY = '002 "Order of Challenges", "Challenges"; LotNR Alacrity (met-reference 3.3)'


def rule_outcome(state: ChallengeState) -> ChallengeRuling:
    """Rule on the challenge as played so far.

    The final loser loses the Traits still at risk, both sides on a draw, none when a side
    relented (LotNR Outcomes, Relenting; met-reference 1.1, 1.3; 002 "Ties"); a static
    challenge or simple test succeeds or fails (met-reference 1.6); a won attack deals its
    damage (a strike 1 bashing, a bite 1 aggravated, a weapon its card; 002 "Damage and
    Healing", met-reference 3.7), a defender's counter-attack per ``combat_resolution``
    unless surprised (LotNR Surprise, 3.1), or either side pre-empts: Celerity's Alacrity
    (higher Celerity first, equal levels cancel out; 002 "Challenges", LotNR Alacrity, 3.3) or
    a Speed weapon (``speed_weapon_model``).

    Returns:
        The ruling: outcome, Traits lost and resources spent per side, damage, each test, the
        totals compared and the steps (those of the state, then the outcome's).

    Raises:
        RulesError: the script cannot end yet (a forced darkness retest is due, or the first
            test's throws are missing).
    """
    ch = state.challenge
    if state.forced_due is not None:
        raise RulesError(Phrase.message(N_("%(name)s won in total darkness: add the forced retest's throws."),
                                        name=state.sides[state.forced_due].name), field="tests")
    winner = state.decided
    if winner is None:
        raise RulesError(Phrase.message(N_("The challenge needs its first test's throws.")), field="tests")
    steps = Explanation()
    steps.extend(state.steps.steps())
    relented = any(s.con.relent for s in state.characters())
    losers = list(SIDES) if winner is Outcome.DRAW else [other_side(winner)]
    c, d = state.sides[Outcome.CHALLENGER], state.sides[Outcome.DEFENDER]
    lost = {s.key: list(s.lost) + (list(s.at_risk) if s.key in losers and not relented else []) for s in (c, d)}
    if winner is Outcome.DRAW and (lost[c.key] or lost[d.key]):
        steps.add(N_("Draw: %(losses)s for the rest of the game session."), R_TIES,
                  losses=[Phrase.message(N_("%(name)s loses %(traits)s"), name=s.name, traits=", ".join(lost[s.key]))
                          for s in (c, d) if lost[s.key]])
    else:
        for side in (c, d):
            if lost[side.key]:
                if side.key == winner:  # counted: "perdido"/"perdidos" agree with the Traits (new user 9)
                    steps.add(Phrase.counted(
                        len(lost[side.key]), "%(name)s wins but still loses %(traits)s for the rest of the game "
                        "session (lost on an earlier test of this challenge).", "%(name)s wins but still loses "
                        "%(traits)s for the rest of the game session (lost on earlier tests of this challenge).",
                        name=side.name, traits=", ".join(lost[side.key])), R_OUTCOME)
                else:
                    steps.add(N_("%(name)s loses %(traits)s for the rest of the game session."), R_OUTCOME,
                              name=side.name, traits=", ".join(lost[side.key]))
    damage: list[DamageDealt] = []
    if ch.kind is Kind.CONTESTED and winner in SIDES:
        damage = _damage(state, winner, steps)
    if ch.kind is Kind.CONTESTED:
        outcome = winner
        head = (Phrase.message(N_("Draw")) if winner is Outcome.DRAW
                else Phrase.message(N_("%(name)s wins"), name=state.sides[winner].name))
    else:
        outcome = Outcome.SUCCESS if winner is Outcome.CHALLENGER else Outcome.FAILURE
        head = Phrase.message(N_("%(name)s succeeds") if outcome is Outcome.SUCCESS else N_("%(name)s fails"),
                              name=c.name)
        steps.add(N_("%(result)s."), R_STATIC, result=head)
    first = state.records[0] if state.records else None
    return ChallengeRuling(
        outcome=outcome,
        challenger_throw=first.challenger_throw if first else None,
        defender_throw=first.defender_throw if first else None,
        traits_lost=tuple(TraitsLost(s.key, tuple(lost[s.key])) for s in (c, d) if lost[s.key]),
        damage=tuple(damage),
        steps=steps.steps(),
        summary=_summary(head, (c, d), lost, damage),
        kind=ch.kind,
        tests=tuple(state.records),
        spent=_spent((c, d)),
        totals={} if ch.kind is Kind.SIMPLE else {Outcome.CHALLENGER: c.total, Outcome.DEFENDER: d.total},
    )


def _summary(head: Phrase, sides: tuple[SideState, SideState], lost: dict[Outcome, list[str]],
             damage: list[DamageDealt]) -> Phrase:
    """One sentence for lists: "Ann wins: Bob loses Brawny and takes 1 lethal." (a phrase, said in the
    reader's language at the edge)."""
    parts = []
    for s in sides:
        hurt = [Phrase.message(N_("takes %(damage)s"), damage=damage_levels(x.damage_type, x.levels))
                for x in damage if x.target is s.key]
        said = ([Phrase.message(N_("loses %(traits)s"), traits=", ".join(lost[s.key]))] if lost[s.key] else []) + hurt
        if said:
            parts.append(Phrase.message(N_("%(name)s %(what)s"), name=s.name, what=both(said)))
    if parts:
        return Phrase.message(N_("%(head)s: %(parts)s."), head=head, parts=parts)
    return Phrase.message(N_("%(head)s."), head=head)


def _spent(sides: tuple[SideState, SideState]) -> tuple[Spent, ...]:
    return tuple(
        Spent(s.key, tuple(sorted((+s.abilities_spent).items())), s.willpower_spent,
              tuple(sorted((+s.merits_spent).items())))
        for s in sides if s.con is not None and (+s.abilities_spent or s.willpower_spent or +s.merits_spent)
    )


def _damage(state: ChallengeState, winner: Outcome, steps: Explanation) -> list[DamageDealt]:
    """The winner's attack lands, or the defender's win only stops it (002 "Challenges"; LotNR
    Combat, Surprise, weapons: Speed; met-reference 3.1, 3.7)."""
    ch, settings = state.challenge, state.settings
    side, target = state.sides[winner], state.sides[other_side(winner)]
    key = ch.action if winner is Outcome.CHALLENGER else ch.defender_action
    action = ACTIONS[key]
    if not action["attack"]:
        if winner is Outcome.DEFENDER and ACTIONS[ch.action]["attack"]:
            steps.add(N_("%(name)s's attack misses."), R_COMBAT, name=target.name)
        return []
    if winner is Outcome.DEFENDER:
        if ch.surprised and not state.surprise_over:
            steps.add(N_("%(name)s was surprised: this first challenge can only harm %(name)s, so "
                         "%(name)s's win only stops the attack."), R_SURPRISE, name=side.name)
            return []
        attacker = state.sides[Outcome.CHALLENGER]
        faster = _alacrity_pre_empts(state, attacker, side)
        if faster is attacker:
            steps.add(N_("%(attacker)s's Alacrity (Celerity %(celerity)s) pre-empts %(name)s: no "
                         "simultaneous counter-attack, so %(name)s's win only stops the attack."), R_ALACRITY,
                      attacker=attacker.name, celerity=attacker.con.celerity, name=side.name)
            return []
        if faster is side:
            steps.add(N_("%(name)s's Alacrity (Celerity %(celerity)s) pre-empts %(attacker)s: "
                         "%(name)s's attack is a challenge of its own, resolved before this one, so no "
                         "simultaneous counter-attack here; %(name)s's win only stops the attack."), R_ALACRITY,
                      name=side.name, celerity=side.con.celerity, attacker=attacker.name)
            return []
        if _pre_empts(state, attacker, side) and not _pre_empts(state, side, attacker):
            steps.add(N_("%(attacker)s's %(weapon)s (Speed, with Melee) pre-empts %(name)s's %(their_weapon)s: "
                         "no simultaneous counter-attack, so %(name)s's win only stops the attack (%(choice)s)."),
                      R_SPEED, "speed_weapon_model", attacker=attacker.name, weapon=Phrase.term(attacker.con.weapon.name),
                      name=side.name, their_weapon=Phrase.term(side.con.weapon.name),
                      choice=Phrase.term(settings.label("speed_weapon_model")))
            return []
        if settings["combat_resolution"] == "sequential":
            steps.add(N_("%(name)s's win stops the attack; the counter-attack is its own challenge (%(choice)s)."),
                      R_COMBAT, "combat_resolution", name=side.name,
                      choice=Phrase.term(settings.label("combat_resolution")))
            return []
        steps.add(N_("One test for both: the winner hits, so %(name)s's counter-attack lands (%(choice)s)."),
                  '002 "Challenges"', "combat_resolution", name=side.name,
                  choice=Phrase.term(settings.label("combat_resolution")))
    if key == "weapon":
        weapon = side.con.weapon
        assert weapon is not None
        hit = DamageDealt(target.key, weapon.damage_type, weapon.levels, f"{weapon.name} card (met-reference 3.7)")
        steps.add(N_("%(name)s's %(weapon)s hits %(target)s."), hit.rule, name=side.name, weapon=Phrase.term(weapon.name),
                  target=target.name)
    else:
        hit = DamageDealt(target.key, action["damage_type"], action["levels"], action["rule"])
        steps.add(N_("%(name)s's %(action)s hits %(target)s."), action["rule"], name=side.name,
                  action=Phrase.term(action["label"].lower()), target=target.name)
    return [hit]


def _alacrity_pre_empts(state: ChallengeState, attacker: SideState, defender: SideState) -> SideState | None:
    """The side whose Alacrity pre-empts the other in a one-on-one physical challenge, or ``None``
    when neither can or their Celerity is equal (the pre-empts cancel out); a surprised defender
    uses no Celerity in the first challenge (002 "Challenges", "Order of Challenges"; LotNR
    Alacrity and Surprise, met-reference 3.1, 3.3). Mass combat orders its actions itself."""
    ch = state.challenge
    if ch.category is not Category.PHYSICAL or ch.mass or attacker.con is None or defender.con is None:
        return None
    a = alacrity_level(attacker.con.celerity)
    d = alacrity_level(defender.con.celerity, surprised=ch.surprised and not state.surprise_over)
    if a == d:
        return None
    return attacker if a > d else defender


def _pre_empts(state: ChallengeState, side: SideState, other: SideState) -> bool:
    """LotNR Speed: a Speed weapon used with Melee pre-empts an opponent whose weapon is Clumsy, Heavy
    or Slow (setting ``speed_weapon_model``; met-reference 3.7)."""
    con, opp = side.con, other.con
    if state.settings["speed_weapon_model"] != "lotnr" or con is None or opp is None:
        return False
    if con.weapon is None or not con.weapon.has("Speed") or ability_named(con.abilities, "Melee") is None:
        return False
    if opp.weapon is None:
        return False
    return bool({t.lower() for t in opp.weapon.negative_traits} & {"clumsy", "heavy", "slow"})


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["rule_outcome"]
