"""Frenzy and Rötschreck: the Virtue Test against a stimulus and the condition it leaves
(Laws of the Night Revised "Virtue Tests", "Self-Control/Instinct", "Courage", "Frenzy",
"Rötschreck"; met-reference 1.6, T15, T26; the seeds only mention frenzy).

A vampire faced with hunger or provocation resists frenzy with a static Self-Control test;
one faced with fire, sunlight or True Faith resists Rötschreck, the Red Fear, with a static
Courage test. Plain data in (a :class:`VirtueTest`), a :class:`VirtueRuling` out:

1. The test is a static challenge against the stimulus's Traits, as the narrator sets them
   (``data/frenzy.toml`` holds LotNR's tables as the usual values); no Trait is risked and no
   overbid is allowed (LotNR Virtue Tests). Wound penalties do not apply to it (001 "Note":
   not to "most Virtue checks"; LotNR Health names no Virtue Test).
2. Rock, paper, scissors; a tie compares the Virtue's Traits with the stimulus's: more wins,
   fewer loses, equal as the chronicle's ``static_equal_tie`` says (a draw fails by default;
   met-reference 1.6, T14).
3. Self-Control (and Instinct) count no more Traits than the vampire's Blood Traits (LotNR: "You
   can never use more Self-Control/Instinct Traits on Virtue Test resolution than your current
   number of Blood Traits"), and a ravenous vampire (two Blood Traits or fewer) faces a hunger
   stimulus one Trait higher. T15: with no blood a tie against 2 Traits is lost.
4. One retest by risking a Virtue Trait: won, the Trait is lost for the game session; lost, the
   character also gains a temporary derangement (and the risked Trait is lost too: it was risked
   and the retest lost it, the book's usual rule, which its example does not contradict).
5. Losing: the character enters frenzy (Self-Control) or Rötschreck (Courage) and gains a
   permanent Negative Trait, the player's choice of two (Callous or Condescending; Cowardly or
   Submissive). A vampire who does not attempt the Self-Control test ("you are not required to
   do so") frenzies without it: the book gives the Trait only to one who "attempt[s] to make a
   test ... and fail[s]"; the Courage test is not optional ("You must make a Courage challenge"),
   so declining it is losing it.
6. Winning: he resists, and needs no further test against the same stimulus for the rest of
   the scene or conflict (Courage: the conflict, or ten minutes).
7. One Willpower Trait fends off the frenzy for ten minutes instead of a test; if the trigger is
   still there then, he tests again (LotNR Frenzy). Once in frenzy, a test may end it: free once
   the trigger is removed, for a Willpower Trait while it is still there; losing it keeps the
   frenzy (and gains the Negative Trait, as any failed attempt).
8. Instinct does not resist: a vampire on a Path of Instinct always frenzies, unless his Instinct
   is more than double the stimulus, when he may choose (LotNR Instinct).

What stays with the narrator, and why no test here claims it: whether something is a stimulus at
all and its Traits (the tables are the usual values, the narrator sets the number: LotNR, "as the
narrator sets them"); what the frenzied character does, whom he attacks, and for how long the
frenzy lasts once the trigger is gone (ten minutes, roleplayed); being talked down by another
character (a Social challenge the challenge engine already rules); a retest called on the
character's Nature, and which derangement a lost retest brings. What frenzy does to the
character's own challenges is in the challenge engine (:mod:`larp.rules.challenge`, a side's
``frenzy``): no wound penalties, and no Trait risked when someone starts a Social challenge
against him.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from larp.rules.challenge.engine import rule_challenge
from larp.rules.challenge.script import Challenge, Contestant, Modifier, TestCall
from larp.rules.challenge.types import Call, Category, Kind, Outcome, Throw
from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, blood_traits
from larp.rules.explain import traits as traits_said
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require

R_VIRTUE = "LotNR Virtue Tests (met-reference 1.6)"
R_SELF_CONTROL = "LotNR Self-Control/Instinct (met-reference 1.6, T15)"
R_COURAGE = "LotNR Courage and Rötschreck (met-reference T26)"
R_FRENZY = "LotNR Frenzy"
R_BLOOD = "LotNR Blood Traits: hungry and ravenous"
R_NOTE = '001 "Note": wound penalties do not apply to most Virtue checks'


class Virtue(StrEnum):
    """The Virtue a test is made with (LotNR Virtue Traits)."""

    SELF_CONTROL = "self_control"
    INSTINCT = "instinct"
    COURAGE = "courage"

    @property
    def label(self) -> str:
        """As a sheet names it."""
        return {"self_control": "Self-Control", "instinct": "Instinct", "courage": "Courage"}[self.value]


class Purpose(StrEnum):
    """What the test is for: resisting the stimulus, or ending a frenzy already upon him (LotNR Frenzy)."""

    RESIST = "resist"
    END = "end"


@dataclass(frozen=True)
class Stimulus:
    """One row of a stimulus table in ``data/frenzy.toml``: its Traits, its words, and whether it is hunger."""

    key: str
    traits: int
    label: str
    hunger: bool = False


@dataclass(frozen=True)
class VirtueTable:
    """``data/frenzy.toml`` for one Virtue: the condition it guards against, the Negative Traits a
    loss costs (the player's choice of them) and the usual stimuli."""

    virtue: str
    label: str
    condition: str
    negative_traits: tuple[str, ...]
    negative_category: str
    source: str
    stimuli: Mapping[str, Stimulus]


@dataclass(frozen=True)
class FrenzyTables:
    """``data/frenzy.toml``: Self-Control's and Courage's tables, and hunger's thresholds."""

    self_control: VirtueTable
    courage: VirtueTable
    ravenous_at: int
    ravenous_extra: int
    hungry_at: int
    sunlight: Mapping[str, Mapping[str, Any]]

    def for_virtue(self, virtue: Virtue) -> VirtueTable:
        """The table a Virtue's test reads (Instinct shares Self-Control's, LotNR)."""
        return self.courage if virtue is Virtue.COURAGE else self.self_control


def _virtue_table(raw: Mapping[str, Any], key: str) -> VirtueTable:
    where = f"data/frenzy.toml [{key}]"
    entry = raw.get(key)
    if not isinstance(entry, dict):
        raise TableError(f"{where}: missing")
    stimuli = {}
    for name, row in (entry.get("stimuli") or {}).items():
        here = f"{where}.stimuli.{name}"
        if not isinstance(row, dict):
            raise TableError(f"{here}: must be a table")
        traits = require(row, "traits", int, here)
        if traits < 0:
            raise TableError(f"{here}: traits cannot be negative")
        hunger = row.get("hunger", False)
        if not isinstance(hunger, bool):
            raise TableError(f"{here}: hunger must be true or false")
        stimuli[name] = Stimulus(name, traits, require(row, "label", str, here), hunger)
    if not stimuli:
        raise TableError(f"{where}: no stimuli")
    negatives = require(entry, "negative_traits", list, where)
    if len(negatives) != 2 or not all(isinstance(n, str) and n for n in negatives):
        raise TableError(f"{where}: negative_traits must name the two Negative Traits to choose from")
    return VirtueTable(key, require(entry, "label", str, where), require(entry, "condition", str, where),
                       tuple(negatives), require(entry, "negative_category", str, where),
                       require(entry, "source", str, where), MappingProxyType(stimuli))


@lru_cache(maxsize=None)
def frenzy_tables() -> FrenzyTables:
    """``data/frenzy.toml``, loaded once and validated.

    Raises:
        TableError: the file or an entry is malformed (names the entry).
    """
    raw = load_toml("frenzy.toml")
    hunger = raw.get("hunger")
    if not isinstance(hunger, dict):
        raise TableError("data/frenzy.toml: missing [hunger]")
    sunlight = raw.get("sunlight")
    if not isinstance(sunlight, dict) or set(sunlight) != {"indirect", "direct"}:
        raise TableError("data/frenzy.toml: [sunlight.indirect] and [sunlight.direct] are needed")
    tables = FrenzyTables(
        _virtue_table(raw, "self_control"), _virtue_table(raw, "courage"),
        require(hunger, "ravenous_at", int, "data/frenzy.toml [hunger]"),
        require(hunger, "ravenous_extra", int, "data/frenzy.toml [hunger]"),
        require(hunger, "hungry_at", int, "data/frenzy.toml [hunger]"),
        MappingProxyType({k: MappingProxyType(dict(v)) for k, v in sunlight.items()}),
    )
    for key, row in tables.sunlight.items():
        here = f"data/frenzy.toml [sunlight.{key}]"
        if require(dict(row), "per_turn", int, here) < 1:
            raise TableError(f"{here}: per_turn must be at least 1")
        if require(dict(row), "courage", str, here) not in tables.courage.stimuli:
            raise TableError(f"{here}: courage must be a key of [courage.stimuli]")
    return tables


@dataclass(frozen=True)
class VirtueTest:
    """A Virtue Test as the narrator calls it.

    Attributes:
        name: the character's name.
        virtue: Self-Control (frenzy from hunger or provocation), Instinct, or Courage
            (Rötschreck from fire, sunlight, True Faith).
        traits: the Virtue's current Traits (0 to 5; lost ones left out).
        stimulus: the stimulus's Traits as the narrator sets them, or a key of the Virtue's
            table in ``data/frenzy.toml`` (``"physical_provocation"``, ``"direct_sunlight"``).
        throw, narrator_throw: the test's signs (static: the narrator throws; no Trait is risked).
        retest: the retest's signs (player, narrator) after risking a Virtue Trait, if called.
        blood: Blood Traits in his pool now (Self-Control and Instinct count no more than this);
            ``None``: not said (no cap, no hunger).
        hunger: the stimulus is hunger (the smell, sight or taste of blood): a ravenous vampire's
            difficulty is one higher. A stimulus from the table says so itself.
        relent: he does not attempt the test (on a Path of Instinct whose Instinct lets him choose:
            he chooses the frenzy).
        willpower: Willpower Traits he has left.
        fend_off: he spends a Willpower Trait to hold the frenzy off for ten minutes instead of testing.
        purpose: resist the stimulus, or end the frenzy he is in.
        trigger_removed: ending a frenzy: the trigger is gone, so the test is free (otherwise it costs
            a Willpower Trait).
        bonuses, penalties: other Traits up or down on the test's resolution (a Flaw such as Short
            Fuse, Tenebrous Form's -1 on Courage), never risked.
    """

    name: str
    virtue: Virtue
    traits: int
    stimulus: int | str
    throw: Throw | None = None
    narrator_throw: Throw | None = None
    retest: tuple[Throw, Throw] | None = None
    blood: int | None = None
    hunger: bool = False
    relent: bool = False
    willpower: int = 0
    fend_off: bool = False
    purpose: Purpose = Purpose.RESIST
    trigger_removed: bool = False
    bonuses: tuple[Modifier, ...] = ()
    penalties: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class VirtueRuling:
    """What a Virtue Test decided.

    Attributes:
        outcome: ``SUCCESS`` (he holds) or ``FAILURE`` (the Beast wins); ``None`` when he fended the
            frenzy off with Willpower and no test was made.
        condition: the condition he is in afterwards: ``"frenzy"``, ``"rotschreck"`` or ``""`` (none).
        difficulty: the stimulus's Traits the test was against (a ravenous vampire's hunger included).
        counted: the Traits he counted on a tie.
        negative_traits: the permanent Negative Traits he must choose one of (``()`` if none), and
            their category.
        virtue_lost: Virtue Traits lost for the game session (the one risked on a retest).
        derangement: he gains a temporary derangement (a retest lost).
        willpower_spent: Willpower Traits spent.
        immune: he needs no further test against the same stimulus for the rest of the scene or
            conflict.
        tests: each test as thrown: (player's sign, narrator's sign, result).
        steps: the explanation; summary: one sentence.
    """

    outcome: Outcome | None
    condition: str
    difficulty: int
    counted: int
    negative_traits: tuple[str, ...] = ()
    negative_category: str = ""
    virtue_lost: int = 0
    derangement: bool = False
    willpower_spent: int = 0
    immune: bool = False
    tests: tuple[tuple[Throw, Throw, Outcome], ...] = ()
    steps: tuple[Step, ...] = field(default_factory=tuple)
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the record and the API use this)."""
        return {"outcome": self.outcome.value if self.outcome else None, "condition": self.condition,
                "difficulty": self.difficulty, "counted": self.counted,
                "negative_traits": list(self.negative_traits), "negative_category": self.negative_category,
                "virtue_lost": self.virtue_lost, "derangement": self.derangement,
                "willpower_spent": self.willpower_spent, "immune": self.immune,
                "tests": [[p.value, n.value, r.value] for p, n, r in self.tests],
                "summary": self.summary, "steps": [s.to_dict() for s in self.steps]}


def _count(value: Any, what: str, field_name: str, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (high is not None and value > high):
        limit = Phrase.message(N_(" to %(high)s"), high=high) if high is not None else Phrase.message(N_(" or more"))
        raise RulesError(Phrase.message(N_("%(what)s is a whole number, 0%(limit)s."), what=what, limit=limit),
                         field=field_name)
    return value


def _said(condition: str) -> Phrase:
    """The frenzy or Rötschreck, as a step says it."""
    return Phrase.message(N_("Rötschreck") if condition == "rotschreck" else N_("frenzy"))


def _difficulty(test: VirtueTest, table: VirtueTable) -> tuple[int, bool, Phrase]:
    """The stimulus's Traits, whether it is hunger, and its words (a game word of the table, or "the stimulus")."""
    if isinstance(test.stimulus, str):
        row = table.stimuli.get(test.stimulus.strip().lower())
        if row is None:
            raise RulesError(Phrase.message(N_("%(stimulus)s is not a %(label)s stimulus (known: %(value)s); or "
                                               "give its Traits."),
                                            stimulus=repr(test.stimulus), label=table.label, value=', '.join(table.stimuli)),
                             field="stimulus")
        return row.traits, row.hunger or test.hunger, Phrase.term(row.label.lower())
    return (_count(test.stimulus, "The stimulus's Traits", "stimulus", 10), test.hunger,
            Phrase.message(N_("the stimulus")))


def rule_virtue_test(test: VirtueTest, settings: ChronicleSettings | None = None) -> VirtueRuling:
    """Rule on a Virtue Test against frenzy or Rötschreck (the rules in the module docstring).

    Args:
        test: who, the Virtue and its Traits, the stimulus, the signs, and the choices made.
        settings: the chronicle's settings (``static_equal_tie``; defaults if ``None``).

    Returns:
        The outcome, the condition he is in afterwards, and what it cost him.

    Raises:
        RulesError: input the rules cannot rule on, naming the field: an unknown Virtue or
            stimulus, a count out of range, a missing sign, a retest with no Virtue Trait to risk,
            Willpower he does not have, an overbid (none is allowed on a Virtue Test).
    """
    settings = settings or ChronicleSettings.defaults()
    if not isinstance(test.virtue, Virtue):
        raise RulesError(Phrase.message(N_("The Virtue is self_control, instinct or courage.")), field="virtue")
    if not isinstance(test.purpose, Purpose):
        raise RulesError(Phrase.message(N_("The test resists a stimulus or ends a frenzy.")), field="purpose")
    name = test.name.strip() if isinstance(test.name, str) else ""
    if not name:
        raise RulesError(Phrase.message(N_("The character needs a name.")), field="name")
    traits = _count(test.traits, f"{test.virtue.label} Traits", "traits", 10)
    willpower = _count(test.willpower, "Willpower", "willpower")
    blood = None if test.blood is None else _count(test.blood, "Blood Traits", "blood")
    tables = frenzy_tables()
    table = tables.for_virtue(test.virtue)
    condition = table.condition
    rule = R_COURAGE if test.virtue is Virtue.COURAGE else R_SELF_CONTROL
    steps = Explanation()
    difficulty, hunger, said = _difficulty(test, table)
    if hunger and test.virtue is not Virtue.COURAGE and blood is not None and blood <= tables.ravenous_at:
        difficulty += tables.ravenous_extra
        steps.add(N_("%(name)s has %(blood)s: ravenous, so hunger is %(extra)s harder to resist (%(difficulty)s)."),
                  R_BLOOD, name=name, blood=blood_traits(blood), extra=traits_said(tables.ravenous_extra),
                  difficulty=difficulty)
    ending = test.purpose is Purpose.END
    what = _said(condition)
    virtue = Phrase.term(test.virtue.label)
    spent = 0

    if test.fend_off:
        if ending:
            raise RulesError(Phrase.message(N_("Willpower holds a frenzy off; to end one, test.")), field="fend_off")
        if willpower < 1:
            raise RulesError(Phrase.message(N_("%(name)s has no Willpower left to hold the %(what)s off."),
                                            name=name, what=what), field="fend_off")
        steps.add(N_("%(name)s spends a Willpower Trait and holds the %(what)s off for ten minutes; if the trigger "
                     "is still there then, %(name)s tests again."), R_FRENZY, name=name, what=what)
        return VirtueRuling(None, "", difficulty, 0, willpower_spent=1, steps=steps.steps(), summary=Phrase.message(
            N_("%(name)s holds the %(what)s off for ten minutes (1 Willpower)."), name=name, what=what))
    if ending:
        if not test.trigger_removed:
            if willpower < 1:
                raise RulesError(Phrase.message(N_("While the trigger is there, ending the %(what)s costs a "
                                                   "Willpower Trait; %(name)s has none."), what=what, name=name),
                                 field="willpower")
            spent = 1
        steps.add(N_("%(name)s tests %(virtue)s to end the %(what)s (the trigger is gone: free).")
                  if test.trigger_removed else N_("%(name)s tests %(virtue)s to end the %(what)s, for a Willpower Trait."),
                  R_FRENZY, name=name, virtue=virtue, what=what)

    if test.virtue is Virtue.INSTINCT and not ending:
        return _instinct(name, traits, difficulty, test, steps, table)

    base = traits
    if test.virtue is not Virtue.COURAGE and blood is not None and blood < traits:
        base = blood
        steps.add(N_("%(name)s counts no more %(virtue)s Traits than Blood Traits: %(base)s of %(traits)s."),
                  R_SELF_CONTROL, name=name, virtue=virtue, base=base, traits=traits)
    counted = max(base + sum(_count(m.traits, m.source, "bonuses") for m in test.bonuses)
                  - sum(_count(m.traits, m.source, "penalties") for m in test.penalties), 0)
    steps.add(N_("%(name)s makes a static %(virtue)s test against %(stimulus)s (%(traits)s): no Trait is risked and "
                 "no overbid is allowed."), R_VIRTUE, name=name, virtue=virtue, stimulus=said,
              traits=traits_said(difficulty))
    steps.add(N_("Wound penalties do not apply to a Virtue Test."), R_NOTE)

    if test.relent:
        if ending:
            raise RulesError(Phrase.message(N_("To stay in the %(what)s, make no test."), what=what), field="relent")
        if test.virtue is Virtue.COURAGE:
            steps.add(N_("%(name)s does not face the test; the Courage test is not optional, so %(name)s loses it."),
                      R_COURAGE, name=name)
            return _lost(name, counted, difficulty, condition, table, steps, (), spent, False, 0)
        steps.add(N_("%(name)s does not attempt the test and enters %(what)s; only a failed attempt brings the "
                     "Negative Trait."), R_SELF_CONTROL, name=name, what=what)
        return VirtueRuling(Outcome.FAILURE, condition, difficulty, counted, steps=steps.steps(),
                            summary=Phrase.message(N_("%(name)s gives in and enters %(what)s."), name=name, what=what))

    records: list[tuple[Throw, Throw, Outcome]] = []
    result, counted = _throw(name, test.throw, test.narrator_throw, test, base, difficulty, settings, steps, records,
                             "")
    virtue_lost = 0
    derangement = False
    if result is Outcome.FAILURE and test.retest is not None:
        if traits < 1:
            raise RulesError(Phrase.message(N_("%(name)s has no %(label)s Trait to risk on a retest."),
                                            name=name, label=test.virtue.label), field="retest")
        if not isinstance(test.retest, tuple) or len(test.retest) != 2:
            raise RulesError(Phrase.message(N_("Give the retest's two signs: the player's and the narrator's.")),
                             field="retest")
        steps.add(N_("%(name)s risks a %(virtue)s Trait for the one retest."), R_VIRTUE, name=name, virtue=virtue)
        result, counted = _throw(name, test.retest[0], test.retest[1], test, base, difficulty, settings, steps,
                                 records, "retest.")
        virtue_lost = 1
        if result is Outcome.SUCCESS:
            steps.add(N_("%(name)s holds, but loses the risked %(virtue)s Trait for the rest of the game session."),
                      R_VIRTUE, name=name, virtue=virtue)
        else:
            derangement = True
            steps.add(N_("%(name)s loses the retest too: the risked %(virtue)s Trait is lost for the game session, "
                         "and %(name)s gains a temporary derangement."), R_VIRTUE, name=name, virtue=virtue)
    elif test.retest is not None:
        raise RulesError(Phrase.message(N_("Only a lost Virtue Test is retested.")), field="retest")

    if result is Outcome.FAILURE:
        if ending:
            steps.add(N_("The %(what)s goes on."), R_FRENZY, what=what)
        return _lost(name, counted, difficulty, condition, table, steps, tuple(records), spent, derangement,
                     virtue_lost)
    if ending:
        steps.add(N_("%(name)s gets a hold of himself: the %(what)s ends."), R_FRENZY, name=name, what=what)
        summary = Phrase.message(N_("%(name)s ends the %(what)s."), name=name, what=what)
    else:
        lasting = Phrase.message(N_("the conflict (or ten minutes)") if test.virtue is Virtue.COURAGE
                                 else N_("the rest of the scene or conflict"))
        steps.add(N_("%(name)s holds against the Beast, and needs no further test against the same stimulus for "
                     "%(lasting)s."), rule, name=name, lasting=lasting)
        summary = Phrase.message(N_("%(name)s resists %(what)s."), name=name, what=what)
    return VirtueRuling(Outcome.SUCCESS, "", difficulty, counted, virtue_lost=virtue_lost, willpower_spent=spent,
                        immune=not ending, tests=tuple(records), steps=steps.steps(), summary=summary)


def _throw(name: str, player: Throw | None, narrator: Throw | None, test: VirtueTest, base: int, difficulty: int,
           settings: ChronicleSettings, steps: Explanation, records: list, prefix: str) -> tuple[Outcome, int]:
    """One static test, ruled by the challenge engine like any static challenge of the Virtue category (the
    signs; a tie by the Traits counted against the stimulus's, equal per ``static_equal_tie``; no Trait risked,
    no wound penalty: met-reference 1.6; :func:`larp.rules.challenge.rule_challenge`). Returns the outcome and
    the Traits counted (bonus and penalty Traits included).

    Raises:
        RulesError: a sign missing or malformed, or the Bomb (naming ``<prefix>throw`` or
            ``<prefix>narrator_throw``).
    """
    fields = {"challenger_throw": f"{prefix}throw", "defender_throw": f"{prefix}narrator_throw"}
    if player is None:
        raise RulesError(Phrase.message(N_("Choose %(name)s's sign."), name=name), field=fields["challenger_throw"])
    if narrator is None:
        raise RulesError(Phrase.message(N_("Choose the narrator's sign.")), field=fields["defender_throw"])
    side = Contestant(name, base, (), bonuses=tuple(test.bonuses), penalties=tuple(test.penalties))
    challenge = Challenge(Category.VIRTUE, side, kind=Kind.STATIC, difficulty=difficulty, action="other",
                          tests=(TestCall(Call.TEST, player, narrator),))
    try:
        ruling = rule_challenge(challenge, settings)
    except RulesError as exc:
        field = next((f for key, f in fields.items() if exc.field and exc.field.endswith(key)), exc.field)
        raise RulesError(exc.message, field=field) from None
    steps.extend(ruling.steps[1:])  # the engine's header says "bids no Trait"; ours said what the test is
    records.append((ruling.challenger_throw, ruling.defender_throw, ruling.outcome))
    return ruling.outcome, ruling.totals[Outcome.CHALLENGER]


def _lost(name: str, counted: int, difficulty: int, condition: str, table: VirtueTable, steps: Explanation,
          records: tuple, spent: int, derangement: bool, virtue_lost: int) -> VirtueRuling:
    what = _said(condition)
    first, second = table.negative_traits
    steps.add(N_("%(name)s enters %(what)s and gains the permanent Negative Trait %(first)s or %(second)s "
                 "(%(category)s; the player chooses)."), table.source, name=name, what=what, first=first,
              second=second, category=Phrase.term(table.negative_category))
    summary = Phrase.message(N_("%(name)s enters %(what)s and gains a temporary derangement; %(first)s or %(second)s.")
                             if derangement else N_("%(name)s enters %(what)s; %(first)s or %(second)s."),
                             name=name, what=what, first=first, second=second)
    return VirtueRuling(Outcome.FAILURE, condition, difficulty, counted, table.negative_traits,
                        table.negative_category, virtue_lost, derangement, spent, False, records, steps.steps(),
                        summary)


def _instinct(name: str, traits: int, difficulty: int, test: VirtueTest, steps: Explanation,
              table: VirtueTable) -> VirtueRuling:
    """A Path of Instinct: no test resists the frenzy; more than double the stimulus lets him choose
    (LotNR Instinct)."""
    if traits > 2 * difficulty:
        chooses = not test.relent
        steps.add(N_("%(name)s's Instinct (%(traits)s) is more than double the stimulus (%(difficulty)s): %(name)s "
                     "chooses not to frenzy.") if chooses else
                  N_("%(name)s's Instinct (%(traits)s) is more than double the stimulus (%(difficulty)s): %(name)s "
                     "chooses to frenzy."), R_SELF_CONTROL, name=name, traits=traits, difficulty=difficulty)
        return VirtueRuling(Outcome.SUCCESS if chooses else Outcome.FAILURE, "" if chooses else "frenzy",
                            difficulty, traits, steps=steps.steps(),
                            summary=Phrase.message(N_("%(name)s holds back.") if chooses
                                                   else N_("%(name)s lets the frenzy come."), name=name))
    steps.add(N_("%(name)s follows Instinct and always enters frenzy, unless Instinct is more than double the "
                 "stimulus (%(traits)s against %(difficulty)s)."), R_SELF_CONTROL, name=name, traits=traits,
              difficulty=difficulty)
    return VirtueRuling(Outcome.FAILURE, "frenzy", difficulty, traits, steps=steps.steps(),
                        summary=Phrase.message(N_("%(name)s enters frenzy."), name=name))
