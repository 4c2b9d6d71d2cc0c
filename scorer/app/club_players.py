"""The club window's player page: a player renamed, found to be another (a name mistyped at a table), or one of
a player's other names found to be someone else (a merge undone).  Each returns the player to show after it, or
None where nothing changed; the club's refusal (another window or table changed the players meanwhile) is shown."""

from __future__ import annotations

import difflib
from functools import wraps
from typing import Callable, TypeVar

from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget
from sqlalchemy.engine import Engine

from scorer.app.i18n import translate
from scorer.club import ClubError, matches_of, merge_players, never_with, other_names, player_of, rename_player, separable, separate_name
from scorer.club.names import name_problem
from scorer.club.roster import same_player, tidy

Action = TypeVar("Action", bound=Callable[..., "str | None"])


def _refusal_shown(action: Action) -> Action:
    @wraps(action)
    def shown(parent: QWidget, *args):
        try:
            return action(parent, *args)
        except ClubError as exc:
            QMessageBox.warning(parent, translate("ClubPlayers", "Club"), str(exc))
            return None
    return shown  # type: ignore[return-value]


@_refusal_shown
def rename(parent: QWidget, engine: Engine, name: str) -> str | None:
    """Asks for ``name``'s new name and renames the player."""
    title = translate("ClubPlayers", "Rename a player")
    new, ok = QInputDialog.getText(parent, title, translate(
        "ClubPlayers", "{name}'s new name, in every match (a table typing {name} still scores for the player):").format(name=name), text=name)
    new = tidy(new)
    if not ok or new == name:
        return None
    owner = player_of(engine, new)
    if owner is not None and same_player(owner) != same_player(name):
        if owner in never_with(engine, name):
            QMessageBox.information(parent, title, translate(
                "ClubPlayers", "{new} is already {owner}'s name. If {name} and {owner} are one person, use “Same person as…”.").format(
                new=new, owner=owner, name=name))
        else:
            QMessageBox.information(parent, title, translate(
                "ClubPlayers", "{new} is already {owner}'s name, and {name} and {owner} played in one match: choose another name.").format(
                new=new, owner=owner, name=name))
        return None
    if name_problem(new):
        QMessageBox.information(parent, title, translate("ClubPlayers", "The club cannot keep the name “{new}”.").format(new=new))
        return None
    return rename_player(engine, name, new)


@_refusal_shown
def merge(parent: QWidget, engine: Engine, name: str) -> str | None:
    """Asks whose ``name``'s matches are, and makes the two one player."""
    title = translate("ClubPlayers", "Same person")
    # (Only those who never played with the player can be them; the names most alike first: "Bem" -> "Ben".)
    others = sorted((n for n in never_with(engine, name) if n != name),
                    key=lambda n: -difflib.SequenceMatcher(None, same_player(name), same_player(n)).ratio())
    if not others:
        QMessageBox.information(parent, title, translate(
            "ClubPlayers", "{name} has played with every other player of the club: {name} is none of them.").format(name=name))
        return None
    other, ok = QInputDialog.getItem(parent, title, translate(
        "ClubPlayers", "Which player of the club is {name} (a name mistyped at a table, say)?").format(name=name), others, 0, False)
    if not ok:
        return None
    count = matches_of(engine, name)
    moved = (translate("ClubPlayers", "{name}'s match goes to {other}.") if count == 1 else
             translate("ClubPlayers", "{name}'s {count} matches go to {other}.")).format(name=name, other=other, count=count)
    answer = QMessageBox.question(parent, title, moved + " " + translate(
        "ClubPlayers", "A table typing {name} scores for {other} from now on. “Separate a name…” on {other}'s page undoes it.").format(
        name=name, other=other))
    if answer != QMessageBox.StandardButton.Yes:
        return None
    return merge_players(engine, name, other).into


@_refusal_shown
def separate(parent: QWidget, engine: Engine, name: str) -> str | None:
    """Asks which of ``name``'s other names is someone else, and gives that name its matches back."""
    title = translate("ClubPlayers", "Separate a name")
    also = other_names(engine).get(name, [])
    if not also:
        return None
    other, ok = QInputDialog.getItem(parent, title, translate(
        "ClubPlayers", "Which of {name}'s other names is someone else? The matches typed with it become that player's:").format(name=name),
        also, 0, False)
    if not ok:
        return None
    count, renamed = separable(engine, other)
    moved = (translate("ClubPlayers", "No match of {name} since the rename was typed {other}.") if count == 0 and renamed else
             translate("ClubPlayers", "No match of {name} was typed {other}.") if count == 0 else
             translate("ClubPlayers", "1 match typed {other} goes from {name} to a player {other}.") if count == 1 else
             translate("ClubPlayers", "{count} matches typed {other} go from {name} to a player {other}."))
    answer = QMessageBox.question(parent, title, moved.format(name=name, other=other, count=count) + " " + translate(
        "ClubPlayers", "A table typing {other} plays as {other} from now on.").format(other=other))
    if answer != QMessageBox.StandardButton.Yes:
        return None
    separated = separate_name(engine, other)
    return separated.name if separated.matches else separated.into
