"""Explanations: every ruling says how it was reached, one step at a time.

A step is a short sentence plus the rule it applies, quoted the way the rules
sources are named in ``../shared/seeds/README.md`` (``002 "Ties"``,
``LotNR Overbidding``, ``000 Soak``). When a chronicle setting decided the
step, the setting's key is named too, so a narrator can see which house rule
was in force. The UI, the stored record and the JSON API all show the same
steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable


@dataclass(frozen=True)
class Step:
    """One sentence of a ruling's explanation.

    Attributes:
        text: what was decided, as a short sentence a narrator reads aloud.
        rule: the rule applied, e.g. ``'002 "Ties"'`` or ``"LotNR Overbidding"``.
        setting: the chronicle setting key that decided this step, if any.
    """

    text: str
    rule: str
    setting: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The step as plain JSON-ready data."""
        data: dict[str, Any] = {"text": self.text, "rule": self.rule}
        if self.setting:
            data["setting"] = self.setting
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Step":
        """Rebuild a step from :meth:`to_dict` output (stored records)."""
        return cls(text=data["text"], rule=data["rule"], setting=data.get("setting"))


@dataclass
class Explanation:
    """An ordered, growing list of steps, built while a rule is applied.

    Rules functions create one, ``add`` to it as they decide, and freeze it
    into their ruling with :meth:`steps`.
    """

    _steps: list[Step] = field(default_factory=list)

    def add(self, text: str, rule: str, setting: str | None = None) -> None:
        """Append a step (``text`` decided by ``rule``, optionally by ``setting``)."""
        self._steps.append(Step(text, rule, setting))

    def extend(self, steps: Iterable[Step]) -> None:
        """Append steps produced by another rule function."""
        self._steps.extend(steps)

    def steps(self) -> tuple[Step, ...]:
        """The steps so far, as an immutable tuple."""
        return tuple(self._steps)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun`` as a narrator says them: "1 Trait", "2 Traits", "1 level", "3 levels"."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def levels(count: int) -> str:
    """"1 level", "2 levels" (health levels of damage)."""
    return plural(count, "level")


def traits(count: int) -> str:
    """"1 Trait", "2 Traits"."""
    return plural(count, "Trait")


def times(count: int) -> str:
    """"once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def article(name: str) -> str:
    """``name`` with its indefinite article: "a Pistol", "an Ax" (a vowel letter takes "an")."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


class Refusal(Exception):
    """A request refused, with a message for the person at the screen (issue 29 item 4: the one
    refusal type the screens and the API catch, whether the rules core or a service refuses; the
    services name it ``larp.services.ServiceError``).

    Attributes:
        message: what is wrong and what to do, in the narrator's words.
        field: the form or JSON field at fault, if any.
        status: the kind of refusal as an HTTP status (400 bad input, 403 forbidden, 404 unknown,
            409 stale or conflicting, 422 invalid: the default).
    """

    def __init__(self, message: str, field: str | None = None, status: int = 422):
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


class RulesError(Refusal, ValueError):
    """Input that the rules cannot adjudicate (an impossible or illegal request): a
    :class:`Refusal` of status 422, so a screen or the API shows it like any other refusal,
    with no translation by hand.

    ``field`` names the input at fault (for a 4xx answer naming the bad
    field); ``message`` says what is wrong in the narrator's words.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message, field)
