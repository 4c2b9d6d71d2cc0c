"""The club window's player page: a player renamed, found to be another (a name mistyped at a table), or one of
a player's other names found to be someone else (a merge undone)."""

from __future__ import annotations

import difflib

from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget
from sqlalchemy.engine import Engine

from scorer.app.i18n import translate
from scorer.club import ClubError, matches_of, matches_together, merge_players, other_names, player_names, player_of, rename_player, separate_name
from scorer.club.names import name_problem
from scorer.club.roster import same_player, tidy


def rename(parent: QWidget, engine: Engine, name: str) -> str | None:
    """Asks for ``name``'s new name and renames the player: the new name, or None where nothing changed."""
    new, ok = QInputDialog.getText(parent, translate("ClubPlayers", "Rename a player"), translate(
        "ClubPlayers", "{name}'s new name, in every match (a table typing {name} still scores for the player):").format(name=name), text=name)
    new = tidy(new)
    if not ok or new == name:
        return None
    owner = player_of(engine, new)
    if owner is not None and same_player(owner) != same_player(name):
        QMessageBox.information(parent, translate("ClubPlayers", "Rename a player"), translate(
            "ClubPlayers", "{new} is already {owner}'s name. If {name} and {owner} are one person, use “Same person as…”.").format(
            new=new, owner=owner, name=name))
        return None
    if name_problem(new):
        QMessageBox.information(parent, translate("ClubPlayers", "Rename a player"), translate("ClubPlayers", "The club cannot keep the name “{new}”.").format(new=new))
        return None
    return _done(parent, lambda: rename_player(engine, name, new))


def merge(parent: QWidget, engine: Engine, name: str) -> str | None:
    """Asks whose ``name``'s matches are, and makes the two one player: that player's name, or None."""
    # (Only those who never played with the player can be them; the names most alike first: "Bem" -> "Ben".)
    others = sorted((n for n in player_names(engine) if n != name and not matches_together(engine, name, n)),
                    key=lambda n: -difflib.SequenceMatcher(None, same_player(name), same_player(n)).ratio())
    if not others:
        QMessageBox.information(parent, translate("ClubPlayers", "Same person"), translate(
            "ClubPlayers", "{name} has played with every other player of the club: {name} is none of them.").format(name=name))
        return None
    other, ok = QInputDialog.getItem(parent, translate("ClubPlayers", "Same person"), translate(
        "ClubPlayers", "Which player of the club is {name} (a name mistyped at a table, say)?").format(name=name),
        others, 0, False)
    if not ok:
        return None
    matches = matches_of(engine, name)
    moved = (translate("ClubPlayers", "{name}'s match goes to {other}.") if matches == 1 else
             translate("ClubPlayers", "{name}'s {count} matches go to {other}.")).format(name=name, other=other, count=matches)
    answer = QMessageBox.question(parent, translate("ClubPlayers", "Same person"), moved + " " + translate(
        "ClubPlayers", "A table typing {name} scores for {other} from now on. This cannot be undone here.").format(name=name, other=other))
    if answer != QMessageBox.StandardButton.Yes:
        return None
    return _done(parent, lambda: merge_players(engine, name, other).into)


def separate(parent: QWidget, engine: Engine, name: str) -> str | None:
    """Asks which of ``name``'s other names is someone else, and gives that name its own matches back: the player
    shown after (``name``), or None."""
    also = other_names(engine).get(name, [])
    if not also:
        return None
    other, ok = QInputDialog.getItem(parent, translate("ClubPlayers", "Separate a name"), translate(
        "ClubPlayers", "Which of {name}'s other names is someone else? The matches typed with it become that player's:").format(name=name),
        also, 0, False)
    if not ok:
        return None
    return _done(parent, lambda: separate_name(engine, other).into)


def _done(parent: QWidget, change) -> str | None:
    """``change`` made; the club's refusal shown where it refuses (another window or table changed the players)."""
    try:
        return change()
    except ClubError as exc:
        QMessageBox.warning(parent, translate("ClubPlayers", "Club"), str(exc))
        return None
