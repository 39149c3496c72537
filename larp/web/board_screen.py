"""What the combat board (:mod:`larp.web.combat_board`) and the stray-shot screen (:mod:`larp.web.stray_shot`)
share: a screen of people kept in a :class:`larp.web.people_form.PeopleForm`, edited a tap at a time, that rules
on a fight and records it, drawn the same way (the page, the part an edit redraws, the part a ruling redraws).

Each screen is one :class:`BoardScreen`: its templates, its form's fields, the list a refusal's field names,
the places a refusal is shown, and the kind of ruling it records. Its views keep what differs (who may be
picked, what the rules core is asked, where the screen scrolls after an edit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, NamedTuple

from larp.services import ServiceError
from larp.web.board_outcome import board_outcome, live_steps
from larp.web.rulings import undo_from_board
from larp.web.people_form import SCENE_TEXT, PeopleForm, base_context, edit, error_row, retests_chosen
from larp.web.screen_answer import error_at, respond, result_in_view, shown_at
from larp.web.submissions import shown_where_it_was_recorded


class Fields(NamedTuple):
    """A group of a screen's form fields: the picked side's (``prefix`` ``target``: ``target_bid``...) or each
    row's (``prefix`` ``a``: ``a<id>_bid``...), its ``text`` fields and its ``flags`` (tick boxes)."""

    prefix: str
    text: tuple[str, ...]
    flags: tuple[str, ...]


@dataclass(frozen=True)
class BoardScreen:
    """One screen of people that rules on a fight (the combat board, the stray-shot screen).

    Attributes:
        page: the whole page's template; ``form``: the part an edit or a refusal redraws; ``result``: the part a
            ruling (or its Undo) redraws, with ``whole_form`` when that part is the whole form.
        picks: the pickers (``target``, ``firer``); ``side``: the fields of the picked person whose choices the
            form holds (the target's, the firer's); ``rows``: each listed person's (``a`` attackers, ``b``
            bystanders).
        list_key: the ruling's list a refusal's field names (``attackers[2].bid``); ``places``: where a refusal
            is shown (:func:`larp.web.screen_answer.error_at`).
        kind: the kind of ruling it records; ``parts`` and ``part_name``: the ruling's list of parts (``pairs``,
            ``bystanders``) and the field that names each (:func:`larp.web.board_outcome.board_outcome`).
        add_limit: adding people stops at the rules' limit (five a range on the combat board).
        context: what the screen shows (:func:`larp.web.people_form.base_context` or the screen's own on top).
    """

    page: str
    form: str
    result: str
    whole_form: bool
    picks: tuple[str, ...]
    side: Fields
    rows: Fields
    list_key: str
    places: tuple[tuple[tuple[str, ...], str], ...]
    kind: str
    parts: str
    part_name: str
    add_limit: bool
    context: Callable[..., dict[str, Any]] = base_context

    def read(self, values: Mapping[str, Any], strict: bool = True) -> PeopleForm:
        """The screen's state as a form or an address gives it (:meth:`larp.web.people_form.PeopleForm.read`;
        the side's fields and the whole scene's)."""
        side = self.side.prefix
        return PeopleForm.read(values, self.rows.prefix, self.picks,
                               tuple(f"{side}_{k}" for k in self.side.text) + SCENE_TEXT,
                               tuple(f"{side}_{k}" for k in self.side.flags),
                               self.rows.text, self.rows.flags, strict=strict)

    def posted(self, form: Mapping[str, Any]) -> tuple[PeopleForm, Any]:
        """The posted screen and ``None``; or, when a value is not one of its choices, the screen read without
        it and the answer that says so (the form drawn again with the refusal, nothing done)."""
        try:
            return self.read(form), None
        except ServiceError as exc:
            people_form = self.read(form, strict=False)
            return people_form, self.draw(people_form, status=exc.status, error=exc)

    def edit(self, people_form: PeopleForm, chronicle, step: str, blocked: dict[int, str]) -> dict[str, Any]:
        """One edit of the list or the pickers (:func:`larp.web.people_form.edit` with this screen's pickers).

        Raises:
            ServiceError: the edit refused (the form is unchanged).
        """
        return edit(people_form, chronicle, step, self.picks, blocked, add_limit=self.add_limit)

    def draw(self, people_form: PeopleForm, status: int = 200, url: str | None = None, **extra: Any):
        """The page (htmx: the part an edit redraws) with ``extra`` in its context, and ``url`` the address shown."""
        return respond(self.page, self.form, status=status, url=url, **self.context(people_form, **extra))

    def refused(self, people_form: PeopleForm, exc: ServiceError):
        """The fight refused: the form drawn again with the message beside the field it is about (the person's
        row, the box of the field, else the result area), scrolled there."""
        row = error_row(exc, people_form, self.list_key)
        at = error_at(exc, row, self.places)
        return shown_at(self.draw(people_form, status=exc.status, error=exc, error_row=row, error_at=at), at)

    def adjudicated(self, step: str, people_form: PeopleForm, picks: Mapping[str, Any], throws: tuple[str, str],
                    adjudicate: Callable[[str], Any], incomplete: Callable[[ServiceError], Any]) -> tuple[Any, Any]:
        """One tap's ruling (issue 29: one service call a tap): the retests chosen in ``picks`` read into
        ``people_form`` (``throws``: the two sides' sign fields), then ``adjudicate(record)`` with ``record``
        "always" for "Record as it stands" (``step`` "record"), "unless_forced" for "Make the retests and record"
        (a retest that brings the next forced darkness retest shows it, 002 "Darkness"), "settled" otherwise.

        Returns:
            ``(result, None)``, or ``(None, answer)`` when it is refused: the page of the ruling a repeated tap
            already recorded, ``incomplete(exc)`` for "Make the retests" tapped without a retest or its signs
            (nothing is written), else the form drawn again with the refusal beside its field (:meth:`refused`).
        """
        retests = step in ("retest", "retest_record")
        retests_read = False
        try:
            if retests:
                retests_chosen(picks, people_form, throws)
            retests_read = True
            return adjudicate({"record": "always", "retest_record": "unless_forced"}.get(step, "settled")), None
        except ServiceError as exc:
            again = shown_where_it_was_recorded(exc)
            if again is not None:
                return None, again
            if retests and not retests_read and (exc.field or "").startswith("r"):
                return None, incomplete(exc)
            return None, self.refused(people_form, exc)

    def show_result(self, people_form: PeopleForm, status: int = 200, url: str | None = None, **extra: Any):
        """The ruling (so far, or recorded) in view: the part a ruling redraws, at the top of the viewport."""
        return result_in_view(respond(self.page, self.result, status=status, url=url,
                                      **self.context(people_form, **extra)), whole_form=self.whole_form)

    def undo(self, step: str, people_form: PeopleForm):
        """The Undo of the screen's recorded ruling (``step`` "undo:<ruling id>",
        :func:`larp.web.rulings.undo_from_board`): the same people and scene stay, with what the Undo says."""
        return undo_from_board(step, lambda **said: self.context(people_form, **said), self.page, self.result,
                               whole_form=self.whole_form)

    def outcome(self, live: Any, recorded: Any) -> dict[str, Any] | None:
        """What the screen shows of its fight (:func:`larp.web.board_outcome.board_outcome`): the ruling the
        service gave back (``live``: not recorded yet), else the recorded ruling when it is of this screen's
        kind; ``None`` when there is neither."""
        if live is not None:
            data, steps = live.ruling.to_dict(), live_steps(live.ruling)
        elif recorded is not None and recorded.kind == self.kind:
            data, steps = recorded.outcome, recorded.steps
        else:
            return None
        return board_outcome(data, steps, self.parts, self.part_name)
