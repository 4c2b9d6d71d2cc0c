"""A note is told once: again with its places read a few pixels off it is the same note."""

from __future__ import annotations

from scorer.pipeline import Notice, PipelineConfig, TablePipeline
from scorer.rules.log import MatchHeader
from scorer.words import Listed, Words, at, said_alike


def _taken(place: tuple[float, float], read: list[int], taken: list[int]) -> Words:
    return Words("the tile at {place} read as {read} is taken as {taken}: so the layout fits together",
                 place=at(place), read=read, taken=taken)


class _NoTiles:
    def detect(self, frame):  # (never called: the notes are told directly)
        return []


def test_a_layout_note_whose_tile_is_read_a_few_pixels_off_is_not_told_again() -> None:
    pipeline = TablePipeline(MatchHeader("horse-race", ("Ann", "Ben"), False).new_match(), _NoTiles(), PipelineConfig(starter="Ann"))

    def tell(note: Words) -> list[str]:
        return [e.message for e in pipeline.tell(1.0, [(("layout", note), note)]) if isinstance(e, Notice)]

    first = _taken((212.4, 132.0), [3, 5], [3, 6])
    assert tell(first) == [first]
    assert tell(_taken((214.0, 130.6), [3, 5], [3, 6])) == []  # (the same tile, its box 2 px off)
    elsewhere = _taken((300.0, 132.0), [3, 5], [3, 6])
    assert tell(elsewhere) == [elsewhere]  # (another tile read so)
    otherwise = _taken((213.0, 132.0), [3, 4], [3, 6])
    assert tell(otherwise) == [otherwise]  # (the same place read otherwise)


def test_sentences_are_alike_but_for_places_within_the_distance_given() -> None:
    one = Words("{tile} is seen {count} times: {places}", tile="[2|3]", count=2,
                places=Listed([Words("{tile} at {place}", tile="[2|3]", place=at(p)) for p in ((10, 10), (90, 40))]))
    near = Words("{tile} is seen {count} times: {places}", tile="[2|3]", count=2,
                 places=Listed([Words("{tile} at {place}", tile="[2|3]", place=at(p)) for p in ((12, 9), (90, 43))]))
    assert said_alike(one, near, 5) and not said_alike(one, near, 2)
    assert said_alike(("layout", one), ("layout", near), 5) and not said_alike(("layout", one), ("other", near), 5)
    assert not said_alike(one, Words("{tile} is seen {count} times: {places}", tile="[2|4]", count=2, places=near.values["places"]), 5)
    assert said_alike("plain", "plain", 0) and not said_alike("plain", "other", 100)
