"""Scoring a session log event by event: the records behind ``score --json`` (and ``replay --json``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from scorer.errors import ScorerError
from scorer.words import words_of
from scorer.rules.events import Draw, Event, Pass, RoundStart
from scorer.rules.describe import side_name
from scorer.rules.game import Match, Phase, PlayOutcome, RoundOutcome, counted_as, credited_hands
from scorer.rules.log import (
    LineError, LogLine, MatchHeader, Undo, event_to_json, parse_header, parse_line, read_lines,
)


@dataclass(frozen=True, slots=True)
class Step:
    """One event applied: the state before and after, and what it scored."""

    line: int
    event: Event
    before: Match
    after: Match
    outcome: PlayOutcome | RoundOutcome | None
    t: float | None = None  # seconds into the recording, where the line gives them


def record(step: Step) -> dict[str, Any]:
    """The JSON object for one event: line, type, next, scores and what the event scored."""
    event, after, outcome = step.event, step.after, step.outcome
    out: dict[str, Any] = {"line": step.line, **event_to_json(event)}
    table = after.table
    if isinstance(event, RoundStart):
        out["round"] = after.round_no
        out["starter"] = after.next_player
    elif isinstance(outcome, PlayOutcome):
        out["at"] = None if outcome.at is None else outcome.at.tile.as_list()
        out["side"] = None if outcome.at is None else outcome.at.side.value
        out["sum"] = outcome.sum
        out["points"] = outcome.raw_points
        out["game_points"] = after.rules.game_points(outcome.raw_points)
        out["ends"] = [[e.tile.as_list(), e.value] for e in outcome.ends]
        out["continues"] = outcome.continues
        if after.phase is Phase.ROUND_OVER:
            out["round_over"] = "domino"
    elif isinstance(event, Draw):
        out["boneyard"] = after.boneyard
    elif isinstance(event, Pass) and after.phase is Phase.ROUND_OVER:
        out["round_over"] = "blocked"
    elif isinstance(outcome, RoundOutcome):
        out["round"] = outcome.round_no
        out["blocked"] = outcome.blocked
        out["finisher"] = outcome.finisher
        out["hand_pips"] = dict(zip(table.players, outcome.hand_pips))
        if after.rules.rounds_each_hand:  # (Seven Rocks: each hand rounded on its own)
            out["hand_totals"] = dict(zip(table.players, outcome.hand_totals))
        else:  # (Horse Race: each winner credited with the other hands' pips together, rounded once)
            credited = credited_hands(after, outcome)
            out["credited"] = {p: {"hands": sum(credited[table.side_of(i)]), "raw": outcome.raw_changes[table.side_of(i)]}
                               for i, p in enumerate(table.players) if table.side_of(i) in credited}
        out["round_winners"] = [table.players[s] for side in outcome.winning_sides for s in table.seats_of(side)]
        out["changes"] = {
            p: after.rules.game_points(outcome.raw_changes[table.side_of(i)]) for i, p in enumerate(table.players)
        }
    out["next"] = after.next_to_act  # (between rounds: who starts the next one, where the rules name them)
    out["scores"] = after.scores()
    if after.is_over and not step.before.is_over:
        out["winners"] = list(after.winners())
    return out


@dataclass(frozen=True, slots=True)
class LogReading:
    """A log read up to its end or its first bad line: the events in force (undone ones left out),
    the undone ones a redo may bring back (the next first), and the error that stopped the reading."""

    header: MatchHeader
    steps: tuple[Step, ...]
    undone: tuple[Step, ...]
    lines: int  # the lines read whole, the match line included
    error: LineError | None = None

    @property
    def match(self) -> Match:
        return self.steps[-1].after if self.steps else self.header.new_match()


def _header(lines: Iterator[LogLine]) -> MatchHeader:
    first = next(lines, None)
    if first is None:
        raise LineError(1, "the log is empty: expected a match line first")
    try:
        header = parse_header(first.data)
        header.new_match()
    except ScorerError as exc:
        raise LineError(first.number, words_of(exc)) from None
    return header


def withdraw(steps: list[Step], line: int) -> list[Step]:
    """Take the step of ``line`` and every later one off ``steps``; return them in order."""
    index = next((i for i, s in enumerate(steps) if s.line == line), None)
    if index is None:
        in_force = ", ".join(str(s.line) for s in steps[-5:]) or "none"
        raise ScorerError(f"an undo of line {line}, which holds no event in force (the last in force: {in_force})")
    taken = steps[index:]
    del steps[index:]
    return taken


def read_log(text_lines: Iterable[str]) -> LogReading:
    """Read a whole log: a bad match line raises :class:`LineError`; a later bad line ends the reading
    with the steps before it kept (``error`` says which line and why)."""
    lines = read_lines(text_lines)
    header = _header(lines)
    steps: list[Step] = []
    undone: list[Step] = []
    read = 1
    match = header.new_match()
    try:
        for line in lines:
            try:
                item = parse_line(line.data)
                if isinstance(item, Undo):
                    undone[:0] = withdraw(steps, item.line)
                    match = undone[0].before
                else:
                    after, outcome = match.apply(item)
                    steps.append(Step(line.number, item, match, after, outcome, line.data.get("t")))
                    match = after
                    undone = undone[1:] if undone and undone[0].event == item else []
            except ScorerError as exc:
                raise LineError(line.number, words_of(exc)) from None
            read = line.number
    except LineError as exc:
        return LogReading(header, tuple(steps), tuple(undone), read, exc)
    return LogReading(header, tuple(steps), tuple(undone), read)


def score_log(text_lines: Iterable[str]) -> tuple[MatchHeader, Iterator[Step]]:
    """The match line, and the events in force one by one; a bad line raises :class:`LineError`
    after the steps before it."""
    reading = read_log(text_lines)

    def steps() -> Iterator[Step]:
        yield from reading.steps
        if reading.error is not None:
            raise reading.error

    return reading.header, steps()


def scores_text(match: Match) -> str:
    table = match.table
    parts = [f"{table.side_name(side)} {match.rules.game_points(match.raw_scores[side])}" for side in range(table.n_sides)]
    return ", ".join(parts)


def _points_text(match: Match, raw: int) -> str:
    if match.rules.raw_per_point == 1:
        return f"{raw} point" + ("" if raw == 1 else "s")
    game = match.rules.game_points(raw)
    return f"{raw} raw = {game} point" + ("" if game == 1 else "s")


def narrate(step: Step, lang: str = "en", described: Sequence[str] = ()) -> list[str]:
    """A readable account of one event, in English (``lang="fi"``: in Finnish); ``described``: lines told
    right after a play's own line, before what followed from it (its scores, the round's end)."""
    if lang == "fi":
        return _narrate_fi(step, described)
    event, after, outcome = step.event, step.after, step.outcome
    table = after.table
    lines: list[str] = []
    if step.before.round_no != after.round_no and after.starter is not None:
        lines.append(f"Round {after.round_no}: {table.players[after.starter]} starts")
    if isinstance(outcome, PlayOutcome):
        where = "opens" if outcome.at is None else f"on {outcome.at.tile} ({side_name(outcome.at.side)})"
        terms = " + ".join(str(e.value) for e in outcome.ends) or "0"
        scored = f"scores {_points_text(after, outcome.raw_points)}" if outcome.raw_points else "no score"
        lines.append(f"  {outcome.player} plays {outcome.tile} {where}: ends {terms} = {outcome.sum}, {scored}")
        lines += described
        if outcome.raw_points:
            lines.append(f"    Scores: {scores_text(after)}")
        if outcome.continues:
            lines.append(f"    {outcome.player} continues")
        if after.phase is Phase.ROUND_OVER:
            lines.append(f"  {outcome.player} played the last tile: round {after.round_no} is over")
    elif isinstance(event, Draw):
        lines.append(f"  {event.player} draws {event.count} (boneyard {after.boneyard})")
    elif isinstance(event, Pass):
        verb = "knocks" if not after.rules.has_boneyard else "passes"
        lines.append(f"  {event.player} {verb}")
        if after.phase is Phase.ROUND_OVER:
            lines.append(f"  Nobody can play: round {after.round_no} is blocked")
    elif isinstance(outcome, RoundOutcome):
        hands = _hands_text(after, outcome)
        lines.append(f"  Hands: {hands}")
        gained = _gained(after, outcome)
        how = "blocked" if outcome.blocked else f"{outcome.finisher} went out"
        lines.append(f"  Round {outcome.round_no} ({how}): {', '.join(gained) or 'no points'}")
        lines.append(f"    Scores: {scores_text(after)}")
    if after.is_over and not step.before.is_over:
        winners = after.winners()
        names = " and ".join(winners)
        if len(after.winning_sides) > 1:
            won = f"shared win for {names}"
        else:
            won = f"{names} " + ("wins" if len(winners) == 1 else "win")  # (a pair: "Ben and Dee win")
        lines.append(f"Match over: {won} ({scores_text(after)})")
    return lines


# -- in Finnish, in the words of the original rule texts (../shared/seeds/) ---------------------


def _hands_text(after: Match, outcome: RoundOutcome) -> str:
    """The hands left: "Ann 7, Ben 12"; where each is rounded on its own (Seven Rocks) "Ann 7→5, Ben 12→10"."""
    rounded = after.rules.rounds_each_hand
    return ", ".join(f"{p} {pips}" + (f"→{tot}" if rounded and tot != pips else "")
                     for p, pips, tot in zip(after.table.players, outcome.hand_pips, outcome.hand_totals))


def _gained(after: Match, outcome: RoundOutcome) -> list[str]:
    """What each side got: "Ann +11 (31 + 22 = 53 → 55)", the credit's count where the other hands were counted together."""
    credited = credited_hands(after, outcome)
    gained = []
    for side, change in enumerate(outcome.raw_changes):
        count = counted_as(credited[side], change) if side in credited else ""
        if change or count:
            gained.append(f"{after.table.side_name(side)} {'+' if change >= 0 else ''}{after.rules.game_points(change)}"
                          + (f" ({count})" if count else ""))
    return gained


def _count_fi(n: int, one: str, many: str) -> str:
    """A number and its noun: the nominative after one ("1 piste"), the partitive after any other ("5 pistettä")."""
    return f"{n} {one if n == 1 else many}"


def _points_text_fi(match: Match, raw: int) -> str:
    if match.rules.raw_per_point == 1:
        return _count_fi(raw, "piste", "pistettä")
    game = match.rules.game_points(raw)
    return f"{_count_fi(raw, 'raakapiste', 'raakapistettä')} = {_count_fi(game, 'piste', 'pistettä')}"


def _blocked_fi(match: Match) -> str:
    # Horse Race's text says a round "lukkiutuu", Seven Rocks' (no boneyard) that it "tukkeutuu".
    return "lukkiutui" if match.rules.has_boneyard else "tukkeutui"


def _narrate_fi(step: Step, described: Sequence[str]) -> list[str]:
    event, after, outcome = step.event, step.after, step.outcome
    table = after.table
    lines: list[str] = []
    if step.before.round_no != after.round_no and after.starter is not None:
        lines.append(f"Kierros {after.round_no}: {table.players[after.starter]} aloittaa")
    if isinstance(outcome, PlayOutcome):
        where = "avaukseksi" if outcome.at is None else f"laatan {outcome.at.tile} jatkoksi ({side_name(outcome.at.side, 'fi')})"
        terms = " + ".join(str(e.value) for e in outcome.ends) or "0"
        scored = f"saa {_points_text_fi(after, outcome.raw_points)}" if outcome.raw_points else "ei pisteitä"
        lines.append(f"  {outcome.player} pelaa {outcome.tile} {where}: päät {terms} = {outcome.sum}, {scored}")
        lines += described
        if outcome.raw_points:
            lines.append(f"    Pisteet: {scores_text(after)}")
        if outcome.continues:
            lines.append(f"    {outcome.player} jatkaa vuoroaan")
        if after.phase is Phase.ROUND_OVER:
            lines.append(f"  {outcome.player} pelasi viimeisen laattansa: kierros {after.round_no} päättyi")
    elif isinstance(event, Draw):
        lines.append(f"  {event.player} nostaa {_count_fi(event.count, 'laatan', 'laattaa')} "
                     f"(nostokasassa {after.boneyard})")
    elif isinstance(event, Pass):
        lines.append(f"  {event.player} " + ("koputtaa" if not after.rules.has_boneyard else "ohittaa vuoronsa"))
        if after.phase is Phase.ROUND_OVER:
            lines.append(f"  Kukaan ei voi pelata: kierros {after.round_no} {_blocked_fi(after)}")
    elif isinstance(outcome, RoundOutcome):
        hands = _hands_text(after, outcome)
        lines.append(f"  Kädet: {hands}")
        gained = _gained(after, outcome)
        how = _blocked_fi(after) if outcome.blocked else f"{outcome.finisher} pelasi kätensä tyhjäksi"
        lines.append(f"  Kierros {outcome.round_no} ({how}): {', '.join(gained) or 'ei pisteitä'}")
        lines.append(f"    Pisteet: {scores_text(after)}")
    if after.is_over and not step.before.is_over:
        winners = after.winners()
        names = " ja ".join(winners)
        if len(after.winning_sides) > 1:
            won = f"jaettu voitto: {names}"
        else:
            won = f"{names} " + ("voitti" if len(winners) == 1 else "voittivat")
        lines.append(f"Ottelu päättyi: {won} ({scores_text(after)})")
    return lines
