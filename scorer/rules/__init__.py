"""The rules of the domino games: tiles, the spinner-graph board, one module per game, session logs.

No I/O beyond text, no numpy, no other part of the package: everything else builds on this.
"""

from scorer.rules.board import Board, FreePoint, Join, ScoringEnd
from scorer.rules.describe import describe_board, describe_placement
from scorer.rules.events import Draw, Event, Pass, Play, Reveal, RoundStart
from scorer.rules.game import Match, Phase, PlayOutcome, RoundOutcome, counted_as, credited_hands
from scorer.rules.game_rules import GameRules, Table
from scorer.rules.horse_race import HorseRace
from scorer.rules.log import GAMES, MatchHeader, event_to_json, header_to_json, parse_event, parse_header
from scorer.rules.seven_rocks import SevenRocks
from scorer.rules.tiles import FULL_SET, Side, Tile, round_to_five
from scorer.rules.transcript import Step, narrate, record, score_log

__all__ = [
    "Board", "FreePoint", "Join", "ScoringEnd",
    "describe_board", "describe_placement",
    "Draw", "Event", "Pass", "Play", "Reveal", "RoundStart",
    "GameRules", "Match", "Phase", "PlayOutcome", "RoundOutcome", "Table", "counted_as", "credited_hands",
    "HorseRace", "SevenRocks", "GAMES",
    "MatchHeader", "event_to_json", "header_to_json", "parse_event", "parse_header",
    "FULL_SET", "Side", "Tile", "round_to_five",
    "Step", "narrate", "record", "score_log",
]
