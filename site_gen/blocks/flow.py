"""Side-by-side flow diagrams: the same steps in two or more runs, aligned lane by lane.

    ```flow
    title: Two runs save a checkpoint
    lane sync: Sync save | `async_save: false`
    lane async: Async save | `async_save: true`
    step: a step every lane takes
    step sync: what the sync lane does here
    note: a note under the step above
    step async: what the async lane does instead
    outcome sync: wrong: what the sync run ends with
    outcome async: luck: what the async run ends with
    source: [[checkpoint.py:489]] async_save=wait_fn is not None
    ```
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from ..context import PageContext
from ..names import REFERENCE
from ..statuses import Status, find_status
from ..suggest import did_you_mean
from . import block_renderer, fence_parser, render_inline
from .refs import CodeRef, ref_label, resolve

LINE = re.compile(r"^(?P<kind>title|lane|step|note|outcome|source)"
                  r"(?:\s+(?P<lane>[\w-]+))?\s*:\s*(?P<text>.*)$")
KINDS = ("'title:', 'lane NAME:', 'step:', 'step LANE:', 'note:', "
         "'outcome LANE: VERDICT: text', 'source: [[ref]] code'")


@dataclass
class Step:
    text: str
    line: int
    note: str | None = None
    note_line: int | None = None


@dataclass
class Row:
    """One step position: shared by all lanes, or one step per lane."""

    line: int
    shared: Step | None = None
    cells: dict[str, Step] = field(default_factory=dict)

    @property
    def differs(self) -> bool:
        """Its lanes' steps read differently (a step written per lane that reads the same in
        each, a note beside one of them, is not marked as differing between runs)."""
        return len({step.text.strip() for step in self.cells.values()}) > 1


@dataclass
class Outcome:
    verdict: Status
    text: str
    line: int


@dataclass
class Source:
    """The code a flow is about: a reference, and the code it quotes (checked when resolved)."""

    text: str
    code: str
    line: int
    ref: CodeRef | None = None
    label: Markup = Markup()


@dataclass
class Flow:
    title: str | None
    lanes: dict[str, tuple[str, int]]
    rows: list[Row]
    outcomes: dict[str, Outcome]
    source: Source | None
    # Lanes named by any step or outcome line, valid or not, so one mistake is one error.
    stepped: bool = False
    tried_outcomes: set[str] = field(default_factory=set)
    unknown: dict[str, int] = field(default_factory=dict)  # lanes named, not declared: lines
    broken_lane: bool = False  # a line where lanes are declared was wrong: its lane is unknown
    unread: bool = False  # a line could not be read: the steps are not told to line up
    configs: dict[str, str] = field(default_factory=dict)  # lane: its setting, under its name

    @property
    def same_end(self) -> bool:
        """Every lane ends with the same text (their verdicts tell them apart)."""
        texts = {outcome.text for outcome in self.outcomes.values()}
        return len(self.outcomes) == len(self.lanes) > 1 and len(texts) == 1


def parse_flow(ctx: PageContext, lines: list[str], first: int) -> Flow | None:
    """Parse a flow block's lines and resolve its source; every problem goes to `ctx`."""
    check = ctx.problems.checkpoint()
    flow = Flow(None, {}, [], {}, None)
    last: Step | None = None
    unread = False  # the line before could not be read: it may be the step a note is of
    for i, raw in enumerate(lines):
        line = first + i
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        m = LINE.match(raw.strip())
        if not m:
            ctx.error(f"malformed flow line '{raw.strip()}'; expected one of: {KINDS}", line)
            flow.broken_lane = flow.broken_lane or not flow.rows  # among the lanes: one?
            flow.unread = unread = True
            continue
        if not (unread and m["kind"] == "note"):
            last = _line(ctx, flow, m["kind"], m["lane"], m["text"].strip(), line, last)
        unread = unread and m["kind"] == "note"
    _check(ctx, flow, first)
    if check.failed:
        return None
    if flow.source:
        _resolve_source(ctx, flow.source)
    return flow


def _resolve_source(ctx: PageContext, source: Source) -> None:
    text = source.text
    if source.code and '"' not in text:  # the code is checked like any quote
        code = source.code.replace("\\", "\\\\").replace('"', '\\"')
        target, bar, label = text.partition("|")
        text = f'{target.rstrip()} "{code}"{bar}{label}'
    written = f"'source: [[{source.text}]]{' ' + source.code if source.code else ''}'"
    source.ref = resolve(ctx, text, source.line, written)
    source.label = ref_label(source.ref, text)


def _line(ctx: PageContext, flow: Flow, kind: str, lane: str | None, text: str, line: int,
          last: Step | None) -> Step | None:
    if kind in ("title", "source", "note") and lane:
        ctx.error(f"'{kind}' takes no lane name; expected '{kind}: text'", line)
        return last
    if kind in ("lane", "outcome") and not lane:
        ctx.error(f"'{kind}' needs a lane name; expected '{kind} NAME: ...'", line)
        flow.broken_lane = flow.broken_lane or kind == "lane"
        return last
    if not text:
        ctx.error(f"'{kind}' line has no text", line)
        flow.broken_lane = flow.broken_lane or kind == "lane"
        if kind == "outcome" and lane:  # given, if empty: not also missing
            flow.tried_outcomes.add(lane)
        return last
    if kind == "title":
        flow.title = text
    elif kind == "lane":
        _lane(ctx, flow, lane or "", text, line)
    elif kind == "step":
        return _step(ctx, flow, lane, text, line)
    elif kind == "note":
        if last is None:
            ctx.error("'note' must follow a step line", line)
        elif last.note is not None:
            ctx.error("a step takes one 'note'", line)
        else:
            last.note, last.note_line = text, line
    elif kind == "outcome":
        _outcome(ctx, flow, lane or "", text, line)
    else:
        _source(ctx, flow, text, line)
    return None if kind != "note" else last


def _lane(ctx: PageContext, flow: Flow, name: str, label: str, line: int) -> None:
    if flow.rows:
        ctx.error(f"lane '{name}' is declared after the first step; declare every lane first",
                  line)
        flow.lanes.setdefault(name, (label, line))  # a lane still: its steps are not unknown
        flow.unread = True  # nor told to line up: those before it are in no row
    elif name in flow.lanes:
        ctx.error(f"lane '{name}' is declared twice (first on line {flow.lanes[name][1]})", line)
    else:
        label, _, config = label.partition(" | ")  # words, then the run's setting
        flow.lanes[name] = (label.strip(), line)
        if config.strip():
            flow.configs[name] = config.strip()


def _known_lane(ctx: PageContext, flow: Flow, lane: str, line: int) -> bool:
    if lane not in flow.lanes:
        flow.unknown.setdefault(lane, line)  # told once, by _check
    return lane in flow.lanes


def _step(ctx: PageContext, flow: Flow, lane: str | None, text: str, line: int) -> Step | None:
    flow.stepped = True
    step = Step(text, line)
    if lane is None:
        flow.rows.append(Row(line, shared=step))
        return step
    if not _known_lane(ctx, flow, lane, line):
        return step  # in no row: a note under it is its, not one that follows no step
    row = flow.rows[-1] if flow.rows else None
    if row is None or row.shared is not None or lane in row.cells:
        row = Row(line)
        flow.rows.append(row)
    row.cells[lane] = step
    return step


def _outcome(ctx: PageContext, flow: Flow, lane: str, text: str, line: int) -> None:
    flow.tried_outcomes.add(lane)
    if not _known_lane(ctx, flow, lane, line):
        return
    verdict, _, rest = text.partition(":")
    if not rest.strip():
        ctx.error(f"outcome of lane '{lane}' needs a verdict and a text; expected "
                  "'outcome LANE: VERDICT: text'", line)
        return
    if lane in flow.outcomes:
        ctx.error(f"lane '{lane}' has two outcomes (first on line {flow.outcomes[lane].line})",
                  line)
        return
    status = find_status(ctx.config.statuses, verdict, "verdict",
                         lambda message: ctx.error(message, line))
    if status is not None:
        flow.outcomes[lane] = Outcome(status, rest.strip(), line)


def _source(ctx: PageContext, flow: Flow, text: str, line: int) -> None:
    m = re.match(rf"^\[\[(?P<ref>{REFERENCE})\]\]\s*(?P<code>.*)$", text)
    if not m:
        ctx.error(f"malformed source line '{text}'; expected 'source: [[file:line]] quoted code'",
                  line)
        return
    flow.source = Source(m["ref"], m["code"].strip(), line)


def _check(ctx: PageContext, flow: Flow, first: int) -> None:
    if flow.broken_lane:  # the lane line that was wrong is the error, not its lane unknown
        return
    named = ", ".join(repr(name) for name in flow.unknown)
    if len(flow.lanes) < 2:
        ctx.error(f"a flow needs two or more lanes ('lane NAME: label' lines); found "
                  f"{len(flow.lanes)}" + (f"; its steps also name {named}: declare each with a "
                                          "'lane NAME: label' line" if named else ""), first)
        return
    for lane, line in flow.unknown.items():
        if lane in flow.lanes:  # declared after its steps: told at its lane line
            continue
        ctx.error(f"unknown lane '{lane}'; {did_you_mean(lane, flow.lanes)}expected one of: "
                  f"{', '.join(flow.lanes)}", line)
    if not flow.stepped:
        for name, (_, line) in flow.lanes.items():
            ctx.error(f"lane '{name}' has no steps; expected 'step:' or 'step {name}:' lines",
                      line)
        return
    for number, row in enumerate(flow.rows if not (flow.unknown or flow.unread) else (), 1):
        missing = [lane for lane in flow.lanes if row.shared is None and lane not in row.cells]
        if missing:
            ctx.error(f"lanes do not line up: step {number} has no line for lane "
                      f"{', '.join(repr(m) for m in missing)}; a step that differs needs a "
                      "'step LANE:' line for every lane", row.line)
    without = [lane for lane in flow.lanes if lane not in flow.tried_outcomes]
    if len(without) < len(flow.lanes) and without:
        names = ", ".join(repr(w) for w in without)
        verb = "lane {} has no outcome" if len(without) == 1 else "lanes {} have no outcome"
        ctx.error(f"{verb.format(names)}; give every lane an 'outcome LANE: VERDICT: text' line, "
                  "or none", first)


def flow_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register the ```` ```flow ```` block and its renderer (templates/blocks/flow.html)."""
    template = templates.get_template("blocks/flow.html")

    def render(token: Token, env: dict[str, Any]) -> str:
        def inline(text: str, line: int | None) -> Any:
            return render_inline(md, env, text, line)

        return template.render(flow=token.meta["model"], inline=inline, anchor=token.meta.get("id"))

    fence_parser(md, "flow", "flow_block", parse_flow)
    block_renderer(md, "flow_block", render)
