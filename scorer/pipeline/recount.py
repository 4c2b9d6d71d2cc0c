"""Draws the camera missed, told by the hands laid out at a round's end.

A player who lays out more tiles than the log gives them drew more than the camera counted (a draw of
two seen as one, a draw it never saw).  The round's events are written again with that player's draw
made larger -- their last draw of the round, else (``unseen``) a draw put before their last play or
pass -- where the rules then allow every event and the hands as laid out.  Fewer tiles than the log
gives a player are not explained so by the camera's reading of them alone: a tile of a hand missed by the camera is
likelier than a draw that never was.  Hands typed in by a person are the hands, though: fewer tiles there tell of a
draw counted too many (:func:`with_draws_undone`).  So do hands read surely beside a boneyard holding as many backs
more than the log says -- for a draw counted just after the camera saw nothing (a back another player drew, put to
the player on turn; elsewhere a hand's tile lying face down is likelier).  Play going on after the log had a player out tells of a draw missed the same way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Collection, Iterator, Sequence

from scorer.errors import ScorerError
from scorer.pipeline.notices import Change, DrewBefore, DrewMore
from scorer.pipeline.rewrite import Rewritten, Timed, round_start
from scorer.pipeline.sequences import allows, state_after
from scorer.rules import Draw, Match, Pass, Play, Reveal
from scorer.rules.transcript import Step


def with_missed_draws(steps: Sequence[Step], reveal: Reveal, unseen: bool = True) -> Rewritten | None:
    """The round's events with the draws the hands show were missed, or None: where every hand laid
    out holds as many tiles as the log says, where one holds fewer, or where no draw made larger fits
    (``unseen``: nor a draw put in where the camera saw none)."""
    return _recounted(steps, reveal, 1, lambda events, player, missed: _ways(events, player, missed, unseen))


def with_draws_undone(steps: Sequence[Step], reveal: Reveal, counted_at: Collection[float] | None = None) -> Rewritten | None:
    """The round's events with the draws counted too many taken back, where the hands hold fewer tiles than the log
    gives (and none more): each such player's draw made smaller, or dropped (the last first; of those counted at the
    times ``counted_at``, where given), where the rules then allow every event and the hands; None where none does.
    (For hands that are the hands: see the module.)  No draw is announced again: none changed is a move to tell."""
    # (The match's history keeps its times to the hundredth of a second.)
    times = None if counted_at is None else {round(at, 2) for at in counted_at}
    undone = _recounted(steps, reveal, -1, lambda events, player, more: _fewer(events, player, more, times))
    return None if undone is None else replace(undone, changed=())


Ways = Callable[[list[Timed], str, int], Iterator[tuple[list[Timed], int, Change]]]


def _recounted(steps: Sequence[Step], reveal: Reveal, sign: int, ways: Ways) -> Rewritten | None:
    """The round's events with draws counted again, where the hands hold more tiles than the log gives (``sign`` 1) or
    fewer (-1), and none the other way: for each such player the first of ``ways`` after which the rules allow the
    round, and the hands then (the draws written anew marked changed); None where a game has no boneyard, the hands
    hold as many tiles as the log gives, or no way fits."""
    if not steps or not steps[-1].after.rules.has_boneyard or (start := round_start(steps)) is None:
        return None
    match = steps[-1].after
    off = {player: sign * (len(reveal.hand_of(player) or ()) - count) for player, count in zip(match.players, match.hand_counts)}
    if any(k < 0 for k in off.values()) or not any(off.values()):
        return None
    before = steps[start].before
    logged: list[Timed] = [(s.event, s.t) for s in steps[start:]]
    events, first_changed, said = logged, len(logged), list[Change]()
    for player, count in off.items():
        if not count:
            continue
        way = next((w for w in ways(events, player, count) if allows(before, [e for e, _ in w[0]])), None)
        if way is None:
            return None
        events, first_changed = way[0], min(first_changed, way[1])
        said.append(way[2])
    if not allows(before, [*(e for e, _ in events), reveal]):
        return None
    # (Each way writes anew only the draw it changes; the events kept are the logged ones themselves.)
    changed = tuple(i - first_changed for i, timed in enumerate(events) if not any(timed is kept for kept in logged))
    return Rewritten(start + first_changed, tuple(events[first_changed:]), changed, tuple(said))


def _fewer(events: list[Timed], player: str, more: int, times: set[float] | None) -> Iterator[tuple[list[Timed], int, Change]]:
    """Each way ``player`` can have drawn ``more`` tiles fewer than counted, the last draw first (of those counted at
    ``times``, where given): made smaller, or dropped where it was of ``more``.  Yields the events, the index of the
    one changed, and the change as told."""
    for i in reversed(range(len(events))):
        e, t = events[i]
        if isinstance(e, Draw) and e.player == player and e.count >= more and (times is None or t in times):
            kept = [(Draw(player, e.count - more), t)] if e.count > more else []
            yield events[:i] + kept + events[i + 1:], i, DrewMore(player, e.count - more, e.count, t)


def with_draw_before_play_went_on(steps: Sequence[Step], player: str, goes_on: Callable[[Match], bool]) -> Rewritten | None:
    """The round's events with one draw more for ``player``, whom the log has out with their last tile while
    play went on: a draw put before a play of theirs (the last first: they drew, and laid the tile drawn),
    else a draw of theirs made larger -- the first way the rules allow after which ``goes_on`` holds (the
    tiles laid since can be played then); None where none does."""
    start = round_start(steps)
    if start is None:
        return None
    before = steps[start].before
    events: list[Timed] = [(s.event, s.t) for s in steps[start:]]
    ways = list(_ways(events, player, 1, unseen=True))
    for way, at, words in [w for w in ways if isinstance(w[2], DrewBefore)] + [w for w in ways if isinstance(w[2], DrewMore)]:
        try:
            after = state_after(before, [e for e, _ in way])
        except ScorerError:
            continue
        if goes_on(after):
            return Rewritten(start + at, tuple(way[at:]), (0,), (words,))
    return None


def _ways(events: list[Timed], player: str, missed: int, unseen: bool) -> Iterator[tuple[list[Timed], int, Change]]:
    """Each way ``player`` can have drawn ``missed`` tiles more, likeliest first: a draw of theirs made
    larger (the last first), then (``unseen``) a draw put before a play or pass of theirs (the last
    first; before a pass where the draw emptied the boneyard).  Yields the events, the index of the
    one changed, and the change as told."""
    own = [i for i, (e, _) in enumerate(events) if getattr(e, "player", None) == player]
    for i in reversed(own):
        e, t = events[i]
        if isinstance(e, Draw):
            larger = Draw(player, e.count + missed)
            yield events[:i] + [(larger, t)] + events[i + 1:], i, DrewMore(player, larger.count, e.count, t)
    for i in reversed(own if unseen else []):
        e, t = events[i]
        if isinstance(e, (Play, Pass)):
            tile = e.tile if isinstance(e, Play) else None
            yield events[:i] + [(Draw(player, missed), t)] + events[i:], i, DrewBefore(player, missed, tile, t)
