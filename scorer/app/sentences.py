"""The templates of the sentences told to the players (scorer.words.Words: the layout's sentences, the rules'
refusals, the camera's notices), listed for ``pyside6-lupdate``, which reads only the app's sources: their
translations, context "Sentences", are what :mod:`scorer.app.wording` says them again with."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

# A change with the moment of the video it was made at (scorer.pipeline.notices): not said aloud.
AT_SECONDS = QT_TRANSLATE_NOOP("Sentences", "{change} (at {seconds} s)")

# The layout's sentences and the rules' refusals (scorer.words.Words): their templates, for the translations.
SENTENCES = (
    QT_TRANSLATE_NOOP("Sentences", "camera {camera}: not found or cannot be opened"),
    QT_TRANSLATE_NOOP("Sentences", "camera {camera}: no picture for {seconds} s; it stopped or was unplugged"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} at {place}"),
    QT_TRANSLATE_NOOP("Sentences", "pips do not match at a join: {tile} shows {value} where {other} shows {other_value}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} was on the table and is not seen in the layout now (moved, covered or taken away)"),
    QT_TRANSLATE_NOOP("Sentences", "which double spins (the round's first) cannot be told from the picture: {tiles} -- taken "
                                   "as {spinner}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile}: joined to {other}, which the rules kept off the board (above)"),
    QT_TRANSLATE_NOOP("Sentences", "most of the board before is not seen ({seen} of its {count} tiles): is this the same table, "
                                   "seen whole?"),
    QT_TRANSLATE_NOOP("Sentences", "{count} tiles appeared on an empty table ({tiles}): the opening tile cannot be told"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} cannot be where it lies: {why}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is new but not joined to the layout where a tile may go"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} read as {read} is taken as {taken}: so the table fits the board before"),
    QT_TRANSLATE_NOOP("Sentences", "the box at {place} read as {read} is left out: it overlaps another, and only without it does "
                                "the layout fit together"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} read as {read} is taken as {taken}: so the layout fits together"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} looks face down, yet lies in the layout as the double blank would: taken "
                                "as [0|0] -- please check it"),
    QT_TRANSLATE_NOOP("Sentences", "no face in the picture is read surely, and the tiles taken for backs at {places} look like the "
                                "faces: any of them may be a face whose pips do not show -- please check them"),
    QT_TRANSLATE_NOOP("Sentences", "the layout reaches the edge of the picture ({tiles}): it may go on beyond it, unseen -- frame "
                                "the whole layout"),
    QT_TRANSLATE_NOOP("Sentences", "the open end of {tile} at {place} is not bare table (something covers it): a tile may lie "
                                "there unseen -- please check it"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} is read uncertainly as {read} ({confidence}): please check it"),
    QT_TRANSLATE_NOOP("Sentences", "the pips of the tile at {place} cannot be read (they do not show): please check it"),
    QT_TRANSLATE_NOOP("Sentences", "tiles joined to one another lie beside the layout but are not joined to it ({tiles}): a tile "
                                "between them may be unseen or misread"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} lies lengthwise in the line: read as a double laid crosswise"),
    QT_TRANSLATE_NOOP("Sentences", "{other} meets the long side of {tile} between its middle and its end: read as the line turning "
                                "at the double's end, not a branch from its middle -- please check it"),
    QT_TRANSLATE_NOOP("Sentences", "two tiles at one side: {tile} and {other} both meet the same side"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is seen {count} times: {places}"),
    QT_TRANSLATE_NOOP("Sentences", "spinner {tile}: a branch is used before both line sides are filled"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is taken as {taken}: its half meets a {pips} at a join, a likely other reading"),
    QT_TRANSLATE_NOOP("Sentences", "only the round's first double spins, but {tiles} both have branches"),
    QT_TRANSLATE_NOOP("Sentences", "no order of play gives this layout (a double seems attached by its short end)"),
    QT_TRANSLATE_NOOP("Sentences", "{tile}: {why}"),
    QT_TRANSLATE_NOOP("Sentences", "the box at {place} read as {read} is left out: that tile is seen elsewhere, where it fits the game"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} read as {read} is taken as {taken}: {why}"),
    QT_TRANSLATE_NOOP("Sentences", "a played tile seen nowhere else"),
    QT_TRANSLATE_NOOP("Sentences", "the only likely reading that fits the game"),
    QT_TRANSLATE_NOOP("Sentences", " and "),
    QT_TRANSLATE_NOOP("Sentences", "the layout is not seen (covered, or the camera moved; if the round is over, blocked, give "
                                "the hands left)"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} against the layout reads {tile}, which is already played: which tile is it?"),
    # the camera's questions
    QT_TRANSLATE_NOOP("Sentences", "who started the round? (drawn by lot; the camera did not see the arm)"),
    QT_TRANSLATE_NOOP("Sentences", "the hands left at the round's end could not be counted surely: which were they?"),
    QT_TRANSLATE_NOOP("Sentences", "the new tiles can have been played in orders that score differently"),
    QT_TRANSLATE_NOOP("Sentences", "the new tiles can have been played in orders that leave another player on turn, or other tiles in hand"),
    QT_TRANSLATE_NOOP("Sentences", "one new tile is seen two ways: {readings}"),
    QT_TRANSLATE_NOOP("Sentences", "a tile is seen in two places, and either fits the game: {places}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} at {side} of {other}"),
    QT_TRANSLATE_NOOP("Sentences", "the new tile at {place} is read unsurely: {readings}"),
    QT_TRANSLATE_NOOP("Sentences", " or "),
    QT_TRANSLATE_NOOP("Sentences", "who laid {tile}? the camera saw no arm, and it is {on_turn}'s turn"),
    QT_TRANSLATE_NOOP("Sentences", "{tiles} was laid by an arm from {arm}'s side, but it is {on_turn}'s turn: was it "
                                   "{on_turn}'s?"),
    QT_TRANSLATE_NOOP("Sentences", "{tiles} cannot be played here by {on_turn} under the rules"),
    QT_TRANSLATE_NOOP("Sentences", "{tiles} appeared at once, as if laid by one hand: were they played so?"),
    QT_TRANSLATE_NOOP("Sentences", "the first tiles of the round do not fit: {problems}"),
    QT_TRANSLATE_NOOP("Sentences", "the table does not match the game: {problems}"),
    # the camera's notices
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} now reads {after}, not {before}"),
    QT_TRANSLATE_NOOP("Sentences", "the camera moved by {pixels} px (its stand knocked?): the whole table shifted alike, "
                                   "and the places kept follow it"),
    QT_TRANSLATE_NOOP("Sentences", "the camera was moved to a new view: the table is read afresh from its tiles"),
    QT_TRANSLATE_NOOP("Sentences", "the calibration {name} was made on {made} pictures, and the camera's are {size}, another shape: "
                                   "it is not used -- calibrate again with the camera set as it plays"),
    QT_TRANSLATE_NOOP("Sentences", "the tiles are about {length} px long in the image, too small for their pips to be read "
                                   "reliably (at least {minimum} px is needed): bring the camera closer or raise its "
                                   "resolution"),
    QT_TRANSLATE_NOOP("Sentences", "the picture is too grainy for the tiles to be read reliably (the room is too dark for the "
                                   "camera): more light on the table, please"),
    QT_TRANSLATE_NOOP("Sentences", "the picture is too dark: no tile in it could be read surely -- if tiles lie there, more "
                                   "light on the table, please"),
    QT_TRANSLATE_NOOP("Sentences", "the picture is very dark: tiles may be misread -- more light on the table, please"),
    QT_TRANSLATE_NOOP("Sentences", "no tile could be read surely in the picture: if tiles lie there, a sharper, closer or "
                                   "better lit picture, please"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place}, seen as a back, is taken as [0|0]: it lies where a double is laid "
                                   "on a 0"),
    QT_TRANSLATE_NOOP("Sentences", "{taken} -- correct it if it is not"),
    QT_TRANSLATE_NOOP("Sentences", "no arm was seen laying {tile}: taken as {taken}, the likeliest under the rules "
                                   "({odds})"),
    QT_TRANSLATE_NOOP("Sentences", "{percent}%"),
    QT_TRANSLATE_NOOP("Sentences", "no answer about the order the new tiles were played in: taken as {taken}"),
    QT_TRANSLATE_NOOP("Sentences", "the order taken for the new tiles does not let {tile} be played as seen: another order "
                                   "the rules allowed is taken, the moves since scored again -- scores: {scores}"),
    QT_TRANSLATE_NOOP("Sentences", "the new tiles are taken in the order picked, the moves since scored again -- scores: "
                                   "{scores}"),
    QT_TRANSLATE_NOOP("Sentences", "the moves played since do not fit {played}: the order taken stays (undo the moves to "
                                   "enter them by hand)"),
    QT_TRANSLATE_NOOP("Sentences", "no other order can be picked for those tiles now: their moves were withdrawn, or the "
                                   "next round has begun"),
    QT_TRANSLATE_NOOP("Sentences", "no answer about who laid {tile}: the hands laid out tell -- taken as {taken}"),
    QT_TRANSLATE_NOOP("Sentences", "no answer about who laid {tile}: taken as {taken}, the likeliest under the rules"),
    QT_TRANSLATE_NOOP("Sentences", "no answer about who laid {tile}: taken as {taken}"),
    QT_TRANSLATE_NOOP("Sentences", "no answer about the tile at {place}: taken as read, {tiles}"),
    QT_TRANSLATE_NOOP("Sentences", "no answer about the hands left at the round's end: taken as read -- {hands}"),
    QT_TRANSLATE_NOOP("Sentences", "hands read unsurely, taken as the one likely reading the rules allow: {hands}"),
    QT_TRANSLATE_NOOP("Sentences", "no answer to '{question}' before the recording ended: taken as {taken}"),
    QT_TRANSLATE_NOOP("Sentences", "the hands laid out hold more tiles than the camera saw drawn: taken as {changes}"),
    QT_TRANSLATE_NOOP("Sentences", "the hands laid out hold fewer tiles than the camera saw drawn: taken as {changes}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} was counted out, yet play goes on: the camera missed a draw -- taken as {changes}"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} taken as {taken} is {tile}: {taken} is read surely at {seen_at} -- "
                                   "{changes}, the moves since scored again"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} is {tile}, as corrected"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} is {tile}, as corrected: {changes}, the moves since scored again"),
    QT_TRANSLATE_NOOP("Sentences", "the tile at {place} is not taken as {tile}: the rules do not allow {tile} where {kept} "
                                   "was laid -- it stays {kept} (undo the move to enter another)"),
    QT_TRANSLATE_NOOP("Sentences", "no tile is being followed there"),
    QT_TRANSLATE_NOOP("Sentences", "{player} {tile}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} passed"),
    QT_TRANSLATE_NOOP("Sentences", ", then "),
    QT_TRANSLATE_NOOP("Sentences", "{player} drew {count}, not {seen}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} drew {count} before laying {tile}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} drew {count} before passing"),
    QT_TRANSLATE_NOOP("Sentences", "{player} passed holding {tile}, which could be placed: a player who can place a tile must "
                                   "-- the scores stand as the moves were played"),
    QT_TRANSLATE_NOOP("Sentences", "{player} knocked holding {tile}, which could be placed: a player who can place a tile "
                                   "must -- the scores stand as the moves were played"),
    QT_TRANSLATE_NOOP("Sentences", "{player} played {tile}, not {instead_of}"),
    QT_TRANSLATE_NOOP("Sentences", "played as {played}"),
    AT_SECONDS,
    # the board's refusals
    QT_TRANSLATE_NOOP("Sentences", "{tile} is already on the board"),
    QT_TRANSLATE_NOOP("Sentences", "the board is empty: {tile} opens the round and attaches to nothing"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} needs a free point to attach to; the board is not empty"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} does not match {side} of {other} (shows {value})"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is not on the board"),
    QT_TRANSLATE_NOOP("Sentences", "{side} of {tile} is already filled"),
    QT_TRANSLATE_NOOP("Sentences", "the larger end"),
    QT_TRANSLATE_NOOP("Sentences", "the smaller end"),
    QT_TRANSLATE_NOOP("Sentences", "line A"),
    QT_TRANSLATE_NOOP("Sentences", "line B"),
    QT_TRANSLATE_NOOP("Sentences", "branch A"),
    QT_TRANSLATE_NOOP("Sentences", "branch B"),
    QT_TRANSLATE_NOOP("Sentences", "{side} of {tile} shows {expected}, not {value}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is not a spinner: its branch sides cannot be used"),
    QT_TRANSLATE_NOOP("Sentences", "spinner {tile}: both line sides must be filled before a branch opens; {sides} still "
                                   "free"),
    # the rules' refusals
    QT_TRANSLATE_NOOP("Sentences", "the match is over ({winners} won); no more events"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is still being played; a new round cannot start"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is over but its hands were not revealed; expected a reveal"),
    QT_TRANSLATE_NOOP("Sentences", "{player} played the last tile of round {round} and starts round {next}, not {starter}"),
    QT_TRANSLATE_NOOP("Sentences", "the first round"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} (after a blocked round)"),
    QT_TRANSLATE_NOOP("Sentences", "the starter of {which} is drawn by lot; the round event must name the starter"),
    QT_TRANSLATE_NOOP("Sentences", "no round is being played: expected a round event before {player}'s {action}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} played the last tile"),
    QT_TRANSLATE_NOOP("Sentences", "it is blocked"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is over ({why}): expected the reveal of the hands, not a {action}"),
    QT_TRANSLATE_NOOP("Sentences", "it is {on_turn}'s turn, not {player}'s ({action})"),
    QT_TRANSLATE_NOOP("Sentences", "play"),
    QT_TRANSLATE_NOOP("Sentences", "draw"),
    QT_TRANSLATE_NOOP("Sentences", "pass"),
    QT_TRANSLATE_NOOP("Sentences", "{game} has no boneyard: nobody draws (a player who cannot place knocks)"),
    QT_TRANSLATE_NOOP("Sentences", "{player} starts the round and opens with any tile: there is nothing to draw for"),
    QT_TRANSLATE_NOOP("Sentences", "{player} draws {count} but the boneyard holds {boneyard}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} starts the round and opens with any tile: no pass is possible"),
    QT_TRANSLATE_NOOP("Sentences", "{player} may not pass while the boneyard is not empty ({boneyard} left): a player who cannot play "
                                   "draws"),
    QT_TRANSLATE_NOOP("Sentences", "no round is being played: there are no hands to reveal"),
    QT_TRANSLATE_NOOP("Sentences", "the reveal lists a player's hand twice"),
    QT_TRANSLATE_NOOP("Sentences", "the reveal lists no hand for {players} (give [] for an empty hand)"),
    QT_TRANSLATE_NOOP("Sentences", "{player} has {count} in hand by the log, the reveal shows {shown}"),
    QT_TRANSLATE_NOOP("Sentences", "{player}'s revealed {tile} is on the board"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is revealed twice"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} opens the round: the board is empty, so it cannot be attached to {at}"),
    QT_TRANSLATE_NOOP("Sentences", "a play that names a side must also name the tile it is attached to ('at')"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} fits no free point; free: {free}"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} fits more than one tile ({tiles}): name the one it is attached to with 'at'"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} is put at {at}, which is not on the board"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} does not match {side} of {at}, which shows {value}"),
    QT_TRANSLATE_NOOP("Sentences", "no free side"),
    QT_TRANSLATE_NOOP("Sentences", "{tile} does not match {at}: it has {shows}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} has not drawn: a drawn tile is played right after the draw"),
    QT_TRANSLATE_NOOP("Sentences", "{player} has just drawn: the play right after a draw is the drawn tile"),
    QT_TRANSLATE_NOOP("Sentences", "none"),
    QT_TRANSLATE_NOOP("Sentences", "{side} of {tile} shows {value}"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is not over: the boneyard is not empty ({boneyard} left)"),
    QT_TRANSLATE_NOOP("Sentences", "round {round} is not blocked: {player} holds {tile}, which can be placed"),
    QT_TRANSLATE_NOOP("Sentences", "unknown player {player}; the players are {players}"),
    QT_TRANSLATE_NOOP("Sentences", "player names must differ, found {names}"),
    QT_TRANSLATE_NOOP("Sentences", "{path}: this match is open in another window or process"),
    QT_TRANSLATE_NOOP("Sentences", "{path}: this game is open in another window or process"),
    QT_TRANSLATE_NOOP("Sentences", "another program replaced the file; written again as this window has it, the other "
                                   "kept as {kept}"),
    QT_TRANSLATE_NOOP("Sentences", "another program removed the file; written again as this window has it"),
    QT_TRANSLATE_NOOP("Sentences", "{path}: another window or process writes this file now; this window's copy is kept "
                                   "as {kept}: close this window and go on there"),
    QT_TRANSLATE_NOOP("Sentences", "lines another program added to the file were moved to {kept}"),
    QT_TRANSLATE_NOOP("Sentences", "{path}: cannot open the match to go on with it: {reason}"),
    QT_TRANSLATE_NOOP("Sentences", "{folder}: cannot make the sessions folder: a file of that name is in the way"),
    QT_TRANSLATE_NOOP("Sentences", "{folder}: cannot make the sessions folder: {reason}"),
    QT_TRANSLATE_NOOP("Sentences", "{path}: cannot write the match: {reason}"),
    QT_TRANSLATE_NOOP("Sentences", "{path}: cannot save the move: {reason}"),
    QT_TRANSLATE_NOOP("Sentences", "the disk is full"),
    QT_TRANSLATE_NOOP("Sentences", "the disk quota is used up"),
    QT_TRANSLATE_NOOP("Sentences", "the disk is read-only"),
    QT_TRANSLATE_NOOP("Sentences", "there is no permission to write it"),
    QT_TRANSLATE_NOOP("Sentences", "it is gone"),
    QT_TRANSLATE_NOOP("Sentences", "the disk failed to write it (an input/output error)"),
    QT_TRANSLATE_NOOP("Sentences", "the file is too large for the disk"),
    QT_TRANSLATE_NOOP("Sentences", "the first tile was laid from {arm}'s side, but {named} was named to start the round: who started "
                                   "it?"),
    QT_TRANSLATE_NOOP("Sentences", "no answer about who started the round: taken as {starter}, from whose side its first tile "
                                   "was laid (not {named}, as named at the start)"),
    QT_TRANSLATE_NOOP("Sentences", "a player needs a name, found {name}"),
    QT_TRANSLATE_NOOP("Sentences", "Horse Race is played by 2, 3 or 4 players, found {count}"),
    QT_TRANSLATE_NOOP("Sentences", "Horse Race partnerships need 4 players (two pairs), found {count}"),
    QT_TRANSLATE_NOOP("Sentences", "Seven Rocks is played by exactly 4 players in two partnerships, found {count}"),
    QT_TRANSLATE_NOOP("Sentences", "Seven Rocks is played in two partnerships, not each player on their own"),
    QT_TRANSLATE_NOOP("Sentences", "cribbage is played here by 2, 3 or 4 players, found {count}"),
    QT_TRANSLATE_NOOP("Sentences", "a game goes to 121 (or 61 for a short game), not {target}"),
    QT_TRANSLATE_NOOP("Sentences", "an empty card"),
    QT_TRANSLATE_NOOP("Sentences", "the crib"),
    QT_TRANSLATE_NOOP("Sentences", "{text}: unknown rank {rank}; expected A, 2-10 (or T), J, Q or K"),
    QT_TRANSLATE_NOOP("Sentences", "{text}: expected a rank and a suit, like 5H, 10C or JD (suits S, H, D, C)"),
    QT_TRANSLATE_NOOP("Sentences", "{card} appears twice; a deck has one of each card"),
    QT_TRANSLATE_NOOP("Sentences", "{card} would take the count from {count} past 31; say go instead"),
    QT_TRANSLATE_NOOP("Sentences", "a go with no card played since the count restarted"),
    QT_TRANSLATE_NOOP("Sentences", "a deck has four cards of each rank; {card} is played a fifth time"),
    QT_TRANSLATE_NOOP("Sentences", "a hand (or crib) to count has 4 cards besides the starter, found {count}"),
    QT_TRANSLATE_NOOP("Sentences", "{card}: counting a show needs each card's suit"),
    QT_TRANSLATE_NOOP("Sentences", "the game is over ({player} won); deal a new game"),
    QT_TRANSLATE_NOOP("Sentences", "no deal yet: say who deals first"),
    QT_TRANSLATE_NOOP("Sentences", "the starter is already cut ({card})"),
    QT_TRANSLATE_NOOP("Sentences", "the starter needs its suit (for flushes and nobs)"),
    QT_TRANSLATE_NOOP("Sentences", "cut the starter before pegging"),
    QT_TRANSLATE_NOOP("Sentences", "the show has begun: pegging is over for this deal"),
    QT_TRANSLATE_NOOP("Sentences", "{card} is the starter: it is in nobody's hand"),
    QT_TRANSLATE_NOOP("Sentences", "every card has been pegged"),
    QT_TRANSLATE_NOOP("Sentences", "{player} has pegged all {count} cards"),
    QT_TRANSLATE_NOOP("Sentences", "{player} said go: the count must restart before {player} plays again"),
    QT_TRANSLATE_NOOP("Sentences", "it is {turn}'s turn to peg, not {player}'s"),
    QT_TRANSLATE_NOOP("Sentences", "a deck has four cards of each rank; {card} is pegged a fifth time"),
    QT_TRANSLATE_NOOP("Sentences", "every card has been pegged: there is no go to say"),
    QT_TRANSLATE_NOOP("Sentences", "it is {turn}'s turn, not {player}'s"),
    QT_TRANSLATE_NOOP("Sentences", "the count is {count}: any card {player} holds keeps it at 31 or under, so {player} plays and cannot say go"),
    QT_TRANSLATE_NOOP("Sentences", "cut the starter before the show"),
    QT_TRANSLATE_NOOP("Sentences", "{card} is the starter: it counts with every hand, so type only the four cards of the hand"),
    QT_TRANSLATE_NOOP("Sentences", "the counting goes from the dealer's left, the dealer, then the crib: expected {expected}'s count, found {who}'s"),
    QT_TRANSLATE_NOOP("Sentences", "the crib is the dealer's ({dealer}), not {player}'s"),
    QT_TRANSLATE_NOOP("Sentences", "{player} claims {claimed} but the crib counts {total}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} claims {claimed} but the hand counts {total}"),
    QT_TRANSLATE_NOOP("Sentences", "{player} pegged {card} this deal: the hand counted must hold it"),
    QT_TRANSLATE_NOOP("Sentences", "the deal is not finished: every hand and the crib are shown before the next deal"),
    QT_TRANSLATE_NOOP("Sentences", "{card} was counted already this deal, in the crib"),
    QT_TRANSLATE_NOOP("Sentences", "{card} was counted already this deal, in {player}'s hand"),
    QT_TRANSLATE_NOOP("Sentences", "{card} was pegged by {other}: it is not in the crib"),
    QT_TRANSLATE_NOOP("Sentences", "{card} was pegged by {other}: it is not in {player}'s hand"),
)


def sentence_templates() -> frozenset[str]:
    """The templates of the sentences the app has translations for."""
    return frozenset(map(str, SENTENCES))
