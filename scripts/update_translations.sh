#!/usr/bin/env bash
# The app's texts in Finnish (Qt's translation system; see scorer/app/i18n.py).
#
#   bash scripts/update_translations.sh          extract the texts (pyside6-lupdate) into the .ts,
#                                                 then compile the .qm (pyside6-lrelease)
#
# After changing a text in scorer/app: run it, translate what it reports unfinished (Qt Linguist:
# .venv/bin/pyside6-linguist scorer/app/translations/scorer_fi.ts, or the .ts by hand: fill the
# <translation> and drop type="unfinished"), run it again, commit the .ts and the .qm.
# tests/app/test_translations.py fails while a text is untranslated or the .qm is older than the .ts.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PYSIDE6_BIN:-.venv/bin}
DIR=scorer/app/translations
mkdir -p "$DIR"
# No line numbers (-locations none): the .ts changes only when a text does.
"$BIN/pyside6-lupdate" -no-obsolete -locations none -source-language en -target-language fi \
    scorer/app/*.py -ts "$DIR/scorer_fi.ts"
"$BIN/pyside6-lrelease" "$DIR/scorer_fi.ts" -qm "$DIR/scorer_fi.qm"
unfinished=$(grep -c 'type="unfinished"' "$DIR/scorer_fi.ts" || true)
if [ "$unfinished" != "0" ]; then
    echo "$unfinished text(s) still to translate in $DIR/scorer_fi.ts" >&2
fi
