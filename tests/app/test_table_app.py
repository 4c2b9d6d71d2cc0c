"""The app at the table: the tile picker offers only legal plays, the table mode shows the scores large,
a pass or draw can be given to any player, and the menus hold every action."""

from __future__ import annotations

from pathlib import Path

from scorer.app.corrections import TilePicker, player_menu
from scorer.errors import ScorerError
from scorer.rules import FULL_SET, Play, Tile
from scorer.rules.simulate import simulate_match

from tests.app.test_app import NoDetector, StillCamera, make_window


def _mid_round(seed: int, game: str = "horse-race", players: int = 2, k: int = 12):
    sim = simulate_match(game, players, game == "seven-rocks", seed=seed)
    plays = [i for i, s in enumerate(sim.events) if isinstance(s.event, Play)]
    i = plays[k]
    return sim, sim.events[i - 1].after, sim.events[i].event


def test_the_tile_picker_offers_only_tiles_and_ends_the_rules_allow(qtbot) -> None:
    for seed, game, players in ((3, "horse-race", 2), (12, "seven-rocks", 4), (8, "horse-race", 4)):
        sim, match, actual = _mid_round(seed, game, players)
        picker = TilePicker(None, match)
        qtbot.addWidget(picker)
        assert picker.player.currentText() == match.next_player
        board = match.current_board()
        enabled = {t for t, b in picker.tile_buttons.items() if b.isEnabled()}
        assert actual.tile in enabled and not enabled & set(board.tiles)
        for tile in FULL_SET:
            ends = board.placements(tile) if tile not in board.tiles else ()
            legal = []
            for p in ends:
                try:
                    match.apply(Play(match.next_player, tile, p.tile, p.side))
                    legal.append(p)
                except ScorerError:
                    pass
            assert (tile in enabled) == bool(legal), tile
            if tile in enabled:
                picker.tile_buttons[tile].click()
                assert len(picker.end_buttons) == len(legal)
        picker.tile_buttons[actual.tile].click()
        labels = [b.text() for b in picker.end_buttons]
        assert all("ends" in text for text in labels)
        picker.end_buttons[0].click()
        assert picker.play is not None and picker.play.tile == actual.tile
        match.apply(picker.play)  # what it gives is legal
        # Another player: the tiles that player may lay (none, not on turn).
        other = next(p for p in match.players if p != match.next_player)
        picker2 = TilePicker(None, match)
        qtbot.addWidget(picker2)
        picker2.player.setCurrentText(other)
        assert not any(b.isEnabled() for b in picker2.tile_buttons.values())


def test_the_picker_opens_a_round_with_any_tile(qtbot) -> None:
    sim = simulate_match("horse-race", 2, seed=3)
    opening = sim.events[0].after  # the round started, nothing laid
    picker = TilePicker(None, opening)
    qtbot.addWidget(picker)
    assert all(b.isEnabled() for b in picker.tile_buttons.values())
    picker.tile_buttons[Tile(5, 5)].click()
    assert [b.text() for b in picker.end_buttons] == ["opens the round: ends 10 = 10, 2 points"]


def test_a_pass_or_draw_is_offered_for_every_player_the_one_on_turn_first(qtbot) -> None:
    _, match, _ = _mid_round(8, "horse-race", 4)
    menu = player_menu(None, match, "draws")
    qtbot.addWidget(menu)
    texts = [a.text() for a in menu.actions()]
    assert len(texts) == 4 and texts[0] == f"{match.next_player} draws (on turn)"
    assert {a.data() for a in menu.actions()} == set(match.players)


def test_table_mode_shows_the_scores_large_and_who_is_on_turn(qtbot, tmp_path: Path) -> None:
    sim, match, _ = _mid_round(8, "horse-race", 4, k=20)
    from scorer.sessions import Session

    session = Session.create(sim.header, tmp_path)
    for step in sim.events:
        if step.after is match:
            session.apply(step.event)
            break
        session.apply(step.event)
    window = make_window(tmp_path, sim.header, StillCamera(), NoDetector(), session=session)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.banner.setText("Ben: fifteen, three points")  # (what the banner says, table mode says)
    window.toggle_table_mode()
    view = window.table_mode
    assert window.pages.currentWidget() is view and window.table_action.isChecked()
    scores = session.match.scores()
    assert [int(s.text()) for s in view.scores] == [scores[p] for p in sim.header.players]
    on_turn = session.match.next_player
    assert view.turn.text() == f"{on_turn}'s turn"
    assert view.names[sim.header.players.index(on_turn)].text().startswith("▶")
    assert view.scores[0].font().pointSize() >= 40 and view.announcement.text().startswith("Ben")
    window.toggle_table_mode()
    assert window.pages.currentWidget() is not view and window.menuBar().isVisible()
    menus = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert menus == ["Match", "Play", "View", "Help"]
    window.close()


def test_the_back_peg_stays_at_the_score_before_while_moves_score_nothing(qtbot, tmp_path: Path) -> None:
    from scorer.rules.log import MatchHeader

    sim = simulate_match("horse-race", 2, seed=3)
    header = MatchHeader("horse-race", sim.header.players, False)
    window = make_window(tmp_path, header, StillCamera(), NoDetector())
    qtbot.addWidget(window)

    def gain(k: int, player: str) -> int:
        return sim.events[k].after.scores()[player] - sim.events[k - 1].after.scores()[player] if k else 0

    players = sim.header.players
    # A move that scored for a player, then one that scored nothing for anybody.
    k = next(k for k in range(1, len(sim.events) - 1) if any(gain(k, p) for p in players)
             and not any(gain(k + 1, p) for p in players))
    for step in sim.events[: k + 2]:
        window.session.apply(step.event, 0.0)
    window._on_changed(window.snapshot.of(window.session))
    for seat, player in enumerate(players):
        if gain(k, player):
            track = window.pegboard.tracks[seat]
            assert (track.back, track.front) == (sim.events[k - 1].after.scores()[player], sim.events[k].after.scores()[player])


def test_seven_rocks_board_is_numbered_in_points(qtbot, tmp_path: Path) -> None:
    from scorer.rules.log import MatchHeader

    window = make_window(tmp_path, MatchHeader("seven-rocks", ("Ann", "Ben", "Cid", "Dee"), True), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    assert window.pegboard.holes == 50 and window.pegboard.points_per_hole == 5  # (250 points, 5 a hole: 25, 50 ... on the board)


def test_a_question_is_said_aloud_so_that_the_players_look_at_the_screen(qtbot, tmp_path: Path) -> None:
    from scorer.pipeline.questions import WhichReading, needs_confirmation
    from scorer.rules.log import MatchHeader

    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    window.speaker.muted = False
    window._ask(needs_confirmation(1.0, WhichReading((412.0, 200.0), ((Tile(1, 6),), (Tile(0, 1),)))))
    qtbot.waitUntil(lambda: any("look at the screen" in said for said in window.speaker.said_texts), timeout=5000)
    assert window.pending_dialog is not None and window.pending_dialog.isVisible()
    window._close_question()


def test_redone_is_said_only_for_the_move_undone(qtbot, tmp_path: Path) -> None:
    from scorer.app.corrections import legal_plays
    from scorer.rules.log import MatchHeader

    sim = simulate_match("horse-race", 2, seed=3)
    window = make_window(tmp_path, MatchHeader("horse-race", sim.header.players, False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    history = window.session
    for step in sim.events[:4]:
        history.apply(step.event, 0.0)
    window._on_changed(window.snapshot.of(history))
    undone = history.steps[-1].event
    history.undo(0.0)
    window._on_changed(window.snapshot.of(history))
    assert window.statusBar().currentMessage().startswith("Undone:")
    match = history.match
    other = next(play for tile in FULL_SET for play, _ in legal_plays(match, match.next_player, tile) if play != undone)
    history.apply(other, 0.0)  # another move in its place: not a redo
    window._on_changed(window.snapshot.of(history))
    assert not window.statusBar().currentMessage().startswith("Redone")
    history.undo(0.0)
    window._on_changed(window.snapshot.of(history))
    history.apply(other, 0.0)  # the move undone, again
    window._on_changed(window.snapshot.of(history))
    assert window.statusBar().currentMessage().startswith("Redone:")
    assert window.banner.text().startswith("Redone:")  # (not the "Undone" it brought back)


def test_between_rounds_table_mode_names_who_starts_the_next() -> None:
    """The ▶ marks who the rules name to start the next round; the line under it says so too."""
    from scorer.app.tablemode import turn_text
    from scorer.rules import Phase

    sim = simulate_match("horse-race", 3, seed=5)
    between = [s.after for s in sim.events if s.after.phase is Phase.BEFORE_ROUND and s.after.round_no and not s.after.is_over]
    named = [m for m in between if m.next_to_act]
    assert named and all(turn_text(m) == f"{m.next_to_act} starts the next round" for m in named)


def test_table_mode_says_whose_turn_it_is_once_where_nothing_was_announced(qtbot) -> None:
    """A match resumed, or a round not begun, has no announcement: the banner's turn is not shown twice."""
    from scorer.app.tablemode import TableMode, turn_text

    sim, match, _ = _mid_round(8, "horse-race", 2, k=6)
    view = TableMode()
    qtbot.addWidget(view)
    view.show_state(match, turn_text(match))
    assert view.turn.text() == turn_text(match) and view.announcement.text() == ""
    view.show_state(match, "Ben: fifteen, three points")
    assert view.announcement.text() == "Ben: fifteen, three points"
