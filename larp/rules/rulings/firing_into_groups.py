"""The bystander ruling: a missed shot and the people near its target, each bystander's test
built like a one-on-one challenge from the people as they stand tonight and the scene,
with every consequence (002 "Firing Guns into Groups of People"; Spray, met-reference 6.2).

:func:`rule_firing_into_groups` builds the firer and each bystander
(:mod:`larp.rules.rulings.people`: Traits, wound level, darkness and sight powers, the
armor each wears, the gun the firer carries), draws the signs asked for at random,
picks the Traits the firer risks (one per test, the extra Traits that exclude
bystanders), and rules with :func:`larp.rules.firing_into_groups.play_shot_into_group`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from larp.rules.challenge import Category, Outcome, RandomSource, Throw
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.firing_into_groups import (
    Bystander,
    Fire,
    ShotIntoGroupRuling,
    ShotIntoGroup,
    fire_of,
    firer_bid_count,
    play_shot_into_group,
)
from larp.rules.rulings.consequences import Consequences
from larp.rules.rulings.mass_challenge import GroupRuling, draw_sign, group_consequences, later_tests, lead_bid
from larp.rules.rulings.people import Side, bid_for, carried_weapon, check_can_act, choose_bid, contestant_for, person_track
from larp.rules.rulings.strikes import body_of
from larp.rules.rulings.retest_fit import retests_behind, suitable_abilities, with_suitable
from larp.rules.scene import Scene
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight


@dataclass(frozen=True)
class BystanderSide:
    """One person near the target of a missed shot.

    Attributes:
        side: who he is tonight (his lead Trait first; none: the one he has most of).
        throw: his sign (``"random"``: drawn).
        firer_throw: single shots: the firer's sign in this person's test.
        saw_it_coming: he could see the attack coming, so he may retest with Dodge (the narrator's call).
        excluded: the firer paid an extra Trait to keep him out of harm.
        tests: later tests of his pair (Dodge, Firearms retests), :class:`TestCall` values or JSON-like dicts.
    """

    side: Side
    throw: Throw | str | None = None
    firer_throw: Throw | str | None = None
    saw_it_coming: bool = False
    excluded: bool = False
    tests: tuple[Any, ...] = ()


@dataclass(frozen=True)
class FiringIntoGroupsCall:
    """A missed shot as the narrator describes it.

    Attributes:
        firer: the firer (the gun he carries: the scene's or the sheet's; his bid's lead Trait).
        firer_throw: several rounds or an area effect: his one sign against everyone.
        target: the name of the character he missed.
        bystanders: the people near the target, closest first.
        bursts: an automatic weapon fires bursts (``False``: one shot at a time).
        careful_aim: he took careful aim (every other round).
        close_range: within five feet (Full-Auto); also when the scene puts the firer within five feet.
        extra_traits: the extra Traits bid with the shot, given outright (the stateless API);
            empty: the tool picks one per bystander excluded.
        excluded: names of bystanders excluded, given outright (with those marked ``excluded``).
        deliberate_spray: the firer sprays a chosen group on purpose (LotNR Spray, met-reference 6.2):
            the Spray's distances decide (setting ``spray_limits``).
    """

    firer: Side
    target: str
    bystanders: tuple[BystanderSide, ...]
    firer_throw: Throw | str | None = None
    bursts: bool = True
    careful_aim: bool = False
    close_range: bool = False
    extra_traits: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    deliberate_spray: bool = False


@dataclass(frozen=True)
class FiringIntoGroupsRuling(GroupRuling):
    """A missed shot ruled, with everything it changes.

    Attributes:
        shot: the stray shot as the core built it.
        ruling: the engine's ruling (each bystander's test, the hits, the tracks).
        throws: the signs used, by bystander name (``throw``, ``firer_throw``) and ``"firer"``
            (``throw``, several rounds).
        consequences: what changes for each character.
    """

    shot: ShotIntoGroup
    ruling: ShotIntoGroupRuling
    throws: Mapping[str, Mapping[str, str]]
    consequences: Consequences
    suitable: Mapping[Outcome, set[str] | None] = field(default_factory=dict)

    def retests(self, name: str) -> list[tuple[str, str]]:
        """The retests the side behind in ``name``'s test may call now, as ``(by, source)``
        (``by`` challenger: the firer; defender: the bystander), or the forced darkness retest."""
        result = self.ruling.result(name)
        return retests_behind(result.options, result.outcome, result.tested, dict(self.suitable))

    @property
    def needs_decision(self) -> bool:
        """A forced retest is due, or a bystander or the firer may still retest."""
        return bool(self.ruling.pending) or any(self.retests(b.side.name) for b in self.shot.bystanders)


def build_firing_into_groups(firing: FiringIntoGroupsCall, scene: Scene, settings: ChronicleSettings, rng: RandomSource | None
                 ) -> tuple[ShotIntoGroup, dict[str, dict[str, str]]]:
    """The stray shot the engine rules on, and the signs used (random ones drawn).

    Raises:
        RulesError: someone who cannot act, no gun, a malformed sign or test, too few Traits
            for the extra Traits, naming the field.
    """
    category = Category.PHYSICAL
    firer = lead_bid(firing.firer, category)
    check_can_act(firer.person, person_track(firer.person, settings), "firer")
    weapon = carried_weapon(firer.person, scene)
    if not weapon:
        raise RulesError(Phrase.message(N_("Choose the gun that fired.")), field="firer_weapon")
    band = scene.range_for(firer.name)
    try:
        fire = fire_of(weapon, firing.bursts, band, settings, firing.deliberate_spray)
    except RulesError:
        raise RulesError(Phrase.message(N_("There is no gun %(weapon)s in the armory."), weapon=repr(weapon)),
                         field="firer_weapon") from None
    single = fire is Fire.SINGLE
    throws: dict[str, dict[str, str]] = {}
    bystanders = []
    for index, b in enumerate(firing.bystanders):
        where = f"bystanders[{index}]"
        side = lead_bid(b.side, category)
        check_can_act(side.person, person_track(side.person, settings), where)
        drawn: dict[str, str] = {}
        at_risk = not (single and (firing.careful_aim or b.excluded or side.name in firing.excluded))
        throw = firer_throw = None
        if at_risk:
            throw, _ = draw_sign(b.throw, f"{where}.throw", rng)
            if throw is not None:
                drawn["throw"] = throw.value
            if single:
                firer_throw, _ = draw_sign(b.firer_throw, f"{where}.firer_throw", rng)
                if firer_throw is not None:
                    drawn["firer_throw"] = firer_throw.value
        throws[side.name] = drawn
        con = contestant_for(side, category, scene, settings, f"{where}.")
        con = replace(con, bid=bid_for(side, con, category, settings))
        bystanders.append(Bystander(side=con, throw=throw, firer_throw=firer_throw, saw_it_coming=b.saw_it_coming,
                                    tests=later_tests(tuple(b.tests), f"{where}.tests"),
                                    body=body_of(side.person, scene, settings)))
    group_throw = None
    if not single:
        group_throw, _ = draw_sign(firing.firer_throw, "firer_throw", rng)
        if group_throw is not None:
            throws["firer"] = {"throw": group_throw.value}
    excluded = tuple(b.side.name for b in firing.bystanders if b.excluded)
    excluded += tuple(name for name in firing.excluded if name not in excluded)
    firer_con = contestant_for(firer, category, scene, settings, "firer_")
    shot = ShotIntoGroup(firer=replace(firer_con, bid=()), weapon=weapon, target=firing.target,
                     bystanders=tuple(bystanders), firer_throw=group_throw, bursts=firing.bursts,
                     excluded=excluded, careful_aim=firing.careful_aim,
                     close_range=firing.close_range or (band is not None and band.within_five_feet),
                     extra_traits=tuple(firing.extra_traits), range=band,
                     deliberate_spray=firing.deliberate_spray, sense=scene.sense)
    cat = category.value
    lead = firer_con.bid[0] if firer_con.bid else ""
    if firer.person.names_known(cat) and len(firer_con.bid) <= 1 and not firing.extra_traits:
        # One extra Trait per bystander excluded went with the missed shot; the tests take the rest.
        extra = choose_bid(firer.person, cat, lead, len(excluded)) if excluded and lead else ()
        if len(extra) < len(excluded):
            raise RulesError(Phrase.message(N_("%(name)s has only %(value)s Physical Traits left: not enough to "
                                               "pay one extra Trait for each of %(value2)s bystanders."),
                                            name=firer.name, value=len(extra), value2=len(excluded)), field="excluded")
        count = firer_bid_count(replace(shot, extra_traits=extra), settings)
        chosen = choose_bid(firer.person, cat, lead, count + len(excluded)) if lead and count + len(excluded) else ()
        shot = replace(shot, firer=replace(firer_con, bid=chosen[:count]), extra_traits=chosen[count:])
    else:
        shot = replace(shot, firer=firer_con)
    return shot, throws


def rule_firing_into_groups(firing: FiringIntoGroupsCall, scene: Scene | None = None, settings: ChronicleSettings | None = None,
                    rng: RandomSource | None = None, *, night: GameNight | None = None) -> FiringIntoGroupsRuling:
    """Rule on a missed shot into a group and compute everything it changes.

    Each bystander's test is a challenge built like a one-on-one (darkness per side with the
    sight powers, cover, wound levels), the firer's Traits lost carried from test to test; a
    hit lands through the damage rules and the armor the bystander wears (002 "Firing Guns
    into Groups of People", "Damage and Healing"; met-reference 3.7, 6.2).

    Args:
        firing: the firer, the target missed, the people near it closest first, the signs.
        scene: darkness per side, sight powers, range, cover, armor, the firer's gun.
        settings, rng, night: as for :func:`larp.rules.rulings.mass_challenge.rule_mass_challenge` (the
            chronicle's settings, the random source for the signs and the damage rules' tests, the game
            session that dates a torpor the shot begins).

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field.
    """
    scene = scene or Scene()
    settings = settings or ChronicleSettings.defaults()
    shot, throws = build_firing_into_groups(firing, scene, settings, rng)
    ruling = play_shot_into_group(shot, settings, rng)
    consequences = group_consequences([firing.firer] + [b.side for b in firing.bystanders], shot.category.value,
                                      ruling, settings, night)
    dark = scene.dark()
    suitable = {Outcome.CHALLENGER: suitable_abilities(shot.category, shot.weapon, False, dark),
                Outcome.DEFENDER: suitable_abilities(shot.category, "", True, dark)}
    ruling = replace(ruling, steps=tuple(ruling.steps) + consequences.steps,  # the torpors it begins
                     bystanders=tuple(replace(b, options=with_suitable(b.options, suitable)) if b.options else b
                                      for b in ruling.bystanders))  # each test's options say what suits
    return FiringIntoGroupsRuling(shot, ruling, throws, consequences, suitable)
