"""Cribbage: cards, the show and pegging counts, and the cribbage match (games to 121 or 61, skunks)."""

from scorer.cribbage.cards import Card, parse_card
from scorer.cribbage.pegging import PegPlay, PegSequence, PegState
from scorer.cribbage.show import Score, ShowCount, count_show, his_heels

__all__ = ["Card", "parse_card", "PegPlay", "PegSequence", "PegState", "Score", "ShowCount", "count_show", "his_heels"]
