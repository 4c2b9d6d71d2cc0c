"""Letterboxing, decoding the OBB head, rotated NMS, rectification and half pairing — no model needed."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from scorer.vision.detector import (
    CERTAIN,
    SMALL_FOR_A_BLANK_PX,
    SURE_BLANK,
    HalfReading,
    TileDetection,
    fitted_input_size,
    read_tiles,
)
from scorer.vision.geometry import (
    HALF, circles_meeting, half_centers, long_first, obb_corners, obb_corners_many, polygon_iou, rectify,
)
from scorer.vision.box_reading import ReadOnce
from scorer.vision.obb import (
    DFL_BINS, Box, agreed, decode, full_rows, letterbox, mirrored_back, rotated_nms, shrunk, shrunk_once,
)
from scorer.vision.reader import BACK, NOT_A_HALF


def test_letterbox_gives_opencvs_blob() -> None:
    image = np.random.default_rng(3).integers(0, 256, (300, 500, 3), dtype=np.uint8)
    blob, box = letterbox(image, 256, 32)
    canvas = np.full((160, 256, 3), 114, np.uint8)
    top = int(box.pad_y)
    canvas[top : top + 154] = cv2.resize(image, (256, 154), interpolation=cv2.INTER_LINEAR)
    # (OpenCV 5 scales in float32 as letterbox does, to the bit; OpenCV 4 in double: a float32 rounding apart.)
    np.testing.assert_allclose(blob, cv2.dnn.blobFromImage(canvas, 1 / 255.0, swapRB=True), rtol=1e-7, atol=0)


def test_a_frame_is_shrunk_once_a_size_while_it_is_read() -> None:
    frame = np.random.default_rng(4).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    assert shrunk(frame, 544, 306) is not shrunk(frame, 544, 306)  # (not held: made each time)
    with shrunk_once(frame):
        kept = shrunk(frame, 544, 306)
        assert shrunk(frame, 544, 306) is kept and not kept.flags.writeable
        small = shrunk(frame, 224, 126)  # (another size beside it: both kept)
        assert shrunk(frame, 544, 306) is kept and shrunk(frame, 224, 126) is small
        other = frame.copy()
        assert shrunk(other, 544, 306) is not kept and shrunk(other, 544, 306) is not shrunk(other, 544, 306)
    frame[:] = 0  # (read and done with: a frame changed after is shrunk anew)
    assert shrunk(frame, 544, 306).max() == 0 and kept.max() > 0


def test_circles_meeting_as_their_distance_says() -> None:
    rng = np.random.default_rng(5)
    centres, radii = rng.uniform(0, 100, (40, 2)), rng.uniform(1, 20, 40)
    expected = np.linalg.norm(centres[:, None] - centres[None], axis=2) <= radii[:, None] + radii[None]
    assert np.array_equal(circles_meeting(centres, radii), expected)


def test_letterbox_keeps_aspect_and_centres() -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    blob, box = letterbox(image, 416)
    assert blob.shape == (1, 3, 416, 416) and blob.dtype == np.float32
    assert box.scale == pytest.approx(416 / 1280)
    assert box.pad_x == 0 and box.pad_y == pytest.approx((416 - 234) / 2, abs=1)
    # The padding is the grey 114.
    assert blob[0, 0, 0, 0] == pytest.approx(114 / 255)


def test_letterbox_with_a_stride_pads_only_to_its_multiple_and_maps_back() -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    image[700:, 1260:] = 255  # a white corner, to find again in the blob
    blob, box = letterbox(image, 544, stride=32)
    # 1280x720 scaled to 544x306, padded to 544x320 (not 544x544).
    assert blob.shape == (1, 3, 320, 544)
    assert box.scale == pytest.approx(544 / 1280) and box.pad_x == 0 and box.pad_y in (6, 7)
    white = np.argwhere(blob[0, 0] > 0.9)
    y, x = white.max(0)
    assert (x - box.pad_x) / box.scale == pytest.approx(1280, abs=3)
    assert (y - box.pad_y) / box.scale == pytest.approx(720, abs=3)
    # A portrait frame pads its width instead.
    blob, _ = letterbox(np.zeros((480, 360, 3), np.uint8), 544, stride=32)
    assert blob.shape == (1, 3, 544, 416)


def _raw_output(columns: list[tuple[float, float, float, float, float, float, float]], anchors: int = 50) -> np.ndarray:
    """A fake raw head [1, 7, A]: x, y, w, h, score up, score down, angle."""
    out = np.zeros((1, 7, anchors), np.float32)
    for i, col in enumerate(columns):
        out[0, :, i] = col
    return out


def test_decode_maps_boxes_back_to_image_pixels() -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    _, box = letterbox(image, 416)
    # A tile 40x20 input px at (208, 208), rotated 30 degrees, face up with 0.9.
    out = _raw_output([(208, 208, 40, 20, 0.9, 0.1, math.radians(30)), (100, 100, 40, 20, 0.2, 0.1, 0.0)])
    boxes = decode(out, 2, box, conf=0.35)
    assert len(boxes) == 1 and boxes[0].cls == 0 and boxes[0].score == pytest.approx(0.9)
    center = boxes[0].corners.mean(0)
    assert center == pytest.approx([640, 360], abs=0.5)
    sides = sorted(np.linalg.norm(np.roll(boxes[0].corners, -1, 0) - boxes[0].corners, axis=1))
    assert sides[0] == pytest.approx(20 / box.scale, rel=1e-4) and sides[-1] == pytest.approx(40 / box.scale, rel=1e-4)


def test_many_boxes_corners_at_once_are_each_box_s_own() -> None:
    rng = np.random.default_rng(7)
    cx, cy, w, h = (rng.uniform(0, 1280, 50), rng.uniform(0, 720, 50), rng.uniform(10, 400, 50), rng.uniform(5, 200, 50))
    angle = rng.uniform(-math.pi, math.pi, 50)
    many = obb_corners_many(cx, cy, w, h, angle)
    assert many.shape == (50, 4, 2)
    for k in range(50):
        np.testing.assert_allclose(many[k], obb_corners(cx[k], cy[k], w[k], h[k], float(angle[k])), atol=1e-9)
    assert obb_corners_many(*(np.zeros(0),) * 5).shape == (0, 4, 2)


def test_decode_rejects_a_head_of_the_wrong_shape() -> None:
    with pytest.raises(ValueError, match="expected 7 rows"):
        decode(np.zeros((1, 6, 10)), 2, letterbox(np.zeros((10, 10, 3), np.uint8), 32)[1], 0.3)


def _cut_head(height: int, width: int, column: int, sides: tuple[int, int, int, int], score: float, angle: float
              ) -> list[np.ndarray]:
    """A fake head cut before its distance decoding: every column empty but ``column``, whose left, top,
    right and bottom distances (in steps of its stride) are certain."""
    columns = sum((height // s) * (width // s) for s in (8, 16, 32))
    dist = np.full((1, 4 * DFL_BINS, columns), -30.0, np.float32)
    for k, steps in enumerate(sides):
        dist[0, k * DFL_BINS + steps, column] = 30.0
    scores = np.zeros((1, 2, columns), np.float32)
    scores[0, 0, column] = score
    angles = np.zeros((1, 1, columns), np.float32)
    angles[0, 0, column] = angle
    return [dist, scores, angles]


def test_a_cut_head_is_decoded_at_its_anchor_and_stride() -> None:
    box = letterbox(np.zeros((320, 544, 3), np.uint8), 544, 32)[1]  # (the input is the picture: scale 1, no padding)
    # The stride-16 level's cell at row 2, column 5 (after the 40 x 68 cells of stride 8): its centre is
    # (5.5, 2.5) cells.  Left 2, top 1, right 4, bottom 1 steps: 6 x 2 steps, its centre 1 step right.
    column = 40 * 68 + 2 * 34 + 5
    (flat,) = decode(_cut_head(320, 544, column, (2, 1, 4, 1), 0.9, 0.0), 2, box, 0.35, (320, 544))
    assert flat.score == pytest.approx(0.9) and flat.cls == 0
    np.testing.assert_allclose(flat.corners, obb_corners((5.5 + 1) * 16, 2.5 * 16, 96, 32, 0.0), atol=1e-3)
    # Turned 90 degrees about the cell: the offset turns with it, from right to down.
    (turned,) = decode(_cut_head(320, 544, column, (2, 1, 4, 1), 0.9, math.pi / 2), 2, box, 0.35, (320, 544))
    np.testing.assert_allclose(turned.corners, obb_corners(5.5 * 16, (2.5 + 1) * 16, 96, 32, math.pi / 2), atol=1e-3)
    # The same head as full rows decodes to the same box, and a cut head without the input's size is refused.
    (again,) = decode(full_rows(_cut_head(320, 544, column, (2, 1, 4, 1), 0.9, 0.0), 2, (320, 544)), 2, box, 0.35)
    np.testing.assert_allclose(again.corners, flat.corners, atol=1e-4)
    with pytest.raises(ValueError, match="height and width"):
        decode(_cut_head(320, 544, column, (2, 1, 4, 1), 0.9, 0.0), 2, box, 0.35)
    with pytest.raises(ValueError, match="anchors"):
        decode(_cut_head(320, 544, column, (2, 1, 4, 1), 0.9, 0.0), 2, box, 0.35, (352, 544))


def test_a_look_at_the_mirrored_input_maps_back_onto_the_picture() -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    blob, box = letterbox(image, 544, 32)  # 544 x 320, no padding across
    # The model, run on the blob mirrored, sees a tile at x = 100 turned +30 degrees ...
    seen = _raw_output([(100, 150, 40, 20, 0.9, 0.1, math.radians(30))])
    (mirrored,) = decode(mirrored_back(seen, 2, blob.shape[3]), 2, box, conf=0.35)
    (direct,) = decode(seen, 2, box, conf=0.35)
    # ... which lies, on the picture itself, at the mirror image of where it was seen.
    reflected = np.column_stack([1280 - direct.corners[:, 0], direct.corners[:, 1]])
    assert sorted(map(tuple, np.round(mirrored.corners, 3))) == sorted(map(tuple, np.round(reflected, 3)))
    assert seen[0, 0, 0] == 100  # the raw output is not changed


def test_two_looks_agree_on_a_box_and_one_look_alone_needs_twice_the_score() -> None:
    tile = obb_corners(100, 100, 48, 24, 0.0)
    both = Box(tile, 0.8, 0)
    near_copy = Box(obb_corners(102, 101, 47, 24, 0.03), 0.6, 0)
    strong_alone = Box(obb_corners(300, 100, 48, 24, 0.0), 0.8, 0)
    weak_alone = Box(obb_corners(500, 100, 48, 24, 0.0), 0.6, 0)
    back_there = Box(obb_corners(300, 100, 48, 24, 0.0), 0.9, 1)  # the other class: no agreement
    kept = agreed([both, strong_alone, weak_alone], [near_copy, back_there], conf=0.35)
    assert [(round(b.score, 3), b.corners.mean(0)[0]) for b in kept] == [(0.7, 100), (0.4, 300)]
    assert kept[0].corners is tile  # each look keeps its own box; the NMS chooses among them


def test_nms_removes_duplicates_but_keeps_touching_tiles() -> None:
    a = Box(obb_corners(100, 100, 48, 24, 0.0), 0.9, 0)
    duplicate = Box(obb_corners(102, 101, 47, 25, 0.05), 0.8, 0)
    touching = Box(obb_corners(149, 100, 48, 24, 0.0), 0.85, 0)  # end to end, 1 px gap
    crosswise = Box(obb_corners(100, 137, 48, 24, 0.0), 0.7, 1)  # side by side
    kept = rotated_nms([a, touching, duplicate, crosswise], 0.45)
    assert kept == [a, touching, crosswise]


def test_polygon_iou() -> None:
    a = obb_corners(0, 0, 10, 10, 0)
    assert polygon_iou(a, a) == pytest.approx(1.0)
    assert polygon_iou(a, obb_corners(5, 0, 10, 10, 0)) == pytest.approx(1 / 3, rel=1e-3)
    assert polygon_iou(a, obb_corners(20, 0, 10, 10, 0)) == 0.0


def _drawn_tile(angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """A white 2:1 tile with one pip on one half and four on the other, on black."""
    image = np.zeros((300, 300), np.uint8)
    corners = obb_corners(150, 150, 120, 60, math.radians(angle_deg))
    cv2.fillPoly(image, [np.round(corners).astype(np.int32)], 255)
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    axis, perp = np.array([c, s]), np.array([-s, c])
    one = np.array([150, 150]) + axis * 30  # the +axis half: 1 pip
    cv2.circle(image, tuple(np.round(one).astype(int)), 6, 0, -1)
    four = np.array([150, 150]) - axis * 30
    for dx, dy in [(-12, -12), (12, -12), (-12, 12), (12, 12)]:
        p = four + axis * dx + perp * dy
        cv2.circle(image, tuple(np.round(p).astype(int)), 5, 0, -1)
    return image, corners


def _blobs(crop: np.ndarray) -> int:
    dark = (crop < 100).astype(np.uint8)
    inner = dark[3:-3, 3:-3]
    n, _ = cv2.connectedComponents(inner)
    return n - 1


@pytest.mark.parametrize("angle", [0, 37, 90, 145, 200])
def test_rectify_puts_the_tile_upright_and_half_centres_follow(angle: float) -> None:
    image, corners = _drawn_tile(angle)
    crop, H = rectify(image, corners)
    assert crop.shape == (HALF, 2 * HALF)
    first, second = crop[:, :HALF], crop[:, HALF:]
    counts = sorted([_blobs(first), _blobs(second)])
    assert counts == [1, 4]
    # half_centers gives, in the same order, the image points of each half.
    quad = long_first(corners)
    c_first, _ = half_centers(corners)
    pt = cv2.perspectiveTransform(np.array([[c_first]], np.float32), H)[0, 0]
    assert pt == pytest.approx([HALF / 2, HALF / 2], abs=1.5)
    assert quad.shape == (4, 2)


@pytest.mark.parametrize("angle", [0, 37, 145])
def test_a_whole_tile_crop_keeps_the_halves_in_rectify_order_with_the_table_around(angle: float) -> None:
    from scorer.vision.reader import TILE_MARGIN, tile_crop

    image, corners = _drawn_tile(angle)
    crop = tile_crop(image, corners)
    upright, _ = rectify(image, corners)
    assert crop.shape == (HALF, 2 * HALF)
    # The same half first as in rectify (the one with 1 pip or the one with 4).
    assert _blobs(crop[:, :HALF]) == _blobs(upright[:, :HALF])
    # A margin of TILE_MARGIN of the width on every side shows the black table around the white tile.
    border = max(1, int(TILE_MARGIN * HALF / (1 + 2 * TILE_MARGIN)) - 1)
    assert crop[:border].mean() < 60 and crop[-border:].mean() < 60
    assert crop[:, :border].mean() < 60 and crop[:, -border:].mean() < 60
    assert crop[HALF // 2 - 2 : HALF // 2 + 2, HALF - 4 : HALF + 4].mean() > 200  # the tile's middle


def test_the_pip_reader_reads_a_whole_tile_model_with_the_halves_in_order() -> None:
    from pathlib import Path

    from scorer.errors import ModelError
    from scorer.vision.detector import default_models_dir
    from scorer.vision.reader import PipReader

    # The probe model reads a half brighter than its tile's average as 7, a darker one as 0.
    reader = PipReader(Path(__file__).with_name("fixtures") / "probe_tile_reader.onnx", threads=1)
    assert reader.whole_tile
    image = np.full((200, 300), 120, np.uint8)
    corners = obb_corners(150, 100, 120, 60, math.radians(30))
    quad = long_first(corners)
    middle = np.array([(quad[0] + quad[1]) / 2, (quad[3] + quad[2]) / 2])
    cv2.fillPoly(image, [np.round([quad[0], middle[0], middle[1], quad[3]]).astype(np.int32)], 250)  # the c0/c3 end
    cv2.fillPoly(image, [np.round([middle[0], quad[1], quad[2], middle[1]]).astype(np.int32)], 10)
    probs = reader.read(image, [corners, np.roll(quad, 2, axis=0)])  # the same tile, from its other end
    assert probs.shape == (2, 2, 8) and np.allclose(probs.sum(-1), 1.0, atol=1e-5)
    assert probs[0].argmax(-1).tolist() == [7, 0] and probs[1].argmax(-1).tolist() == [0, 7]
    with pytest.raises(ModelError, match="expected input"):
        PipReader(default_models_dir() / "detector.onnx", threads=1)


def test_a_colour_crop_standardised_sums_to_its_grey_standardised() -> None:
    # (What lets a colour reader start from a grey one's weights: its first layer then reads that sum.)
    from scorer.vision.reader import GREY_OF_BGR, standardize, standardize_colour

    crops = np.random.default_rng(3).integers(0, 256, (5, HALF, 2 * HALF, 3)).astype(np.uint8)
    crops[0] = 200  # a flat crop: its contrast floored alike
    summed = np.einsum("nchw,c->nhw", standardize_colour(crops), GREY_OF_BGR)
    assert standardize_colour(crops).shape == (5, 3, HALF, 2 * HALF)
    assert np.allclose(summed, standardize(crops.astype(np.float32) @ GREY_OF_BGR), atol=1e-4)


def test_a_colour_reader_reads_the_crop_in_colour_and_a_grey_one_its_grey() -> None:
    from pathlib import Path

    from scorer.vision.reader import PipReader

    fixtures = Path(__file__).with_name("fixtures")
    # The colour probe reads a half whose blue outweighs its red as 7, the other way round as 0.
    colour = PipReader(fixtures / "probe_colour_reader.onnx", threads=1)
    grey = PipReader(fixtures / "probe_tile_reader.onnx", threads=1)
    assert colour.whole_tile and colour.colour and not grey.colour
    image = np.full((200, 300, 3), 120, np.uint8)
    corners = obb_corners(150, 100, 120, 60, math.radians(30))
    quad = long_first(corners)
    middle = np.array([(quad[0] + quad[1]) / 2, (quad[3] + quad[2]) / 2])
    # The c0/c3 end deep blue (grey 64), the other yellow (grey 185): grey tells them apart the other way.
    cv2.fillPoly(image, [np.round([quad[0], middle[0], middle[1], quad[3]]).astype(np.int32)], (200, 60, 20))
    cv2.fillPoly(image, [np.round([middle[0], quad[1], quad[2], middle[1]]).astype(np.int32)], (20, 200, 220))
    assert colour.read(image, [corners])[0].argmax(-1).tolist() == [7, 0]
    assert grey.read(image, [corners])[0].argmax(-1).tolist() == [0, 7]
    # A grey picture for a colour reader: its three channels alike, no colour to read (every class alike).
    flat = colour.read(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), [corners])
    assert flat.shape == (1, 2, 8) and np.allclose(flat, 1 / 8, atol=1e-4)
    # Each reader's picture made once is read alike (a frame read twice is converted once).
    assert grey.picture(image).ndim == 2 and colour.picture(grey.picture(image)).shape == image.shape
    assert np.array_equal(grey.read(grey.picture(image), [corners]), grey.read(image, [corners]))


def test_read_tiles_pairs_halves_and_drops_boxes_on_the_table() -> None:
    image, corners = _drawn_tile(20)
    frame = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    boxes = [Box(corners, 0.9, 0), Box(obb_corners(40, 40, 40, 20, 0), 0.6, 0), Box(obb_corners(250, 250, 40, 20, 0), 0.5, 1)]

    def fake_reader(frame: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        assert frame.ndim == 3  # (the frame as given: the reader makes of it what its model reads)
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        probs = np.zeros((len(quads), 2, 8))
        for i, quad in enumerate(quads):
            crop, _ = rectify(grey, quad)
            for k, h in enumerate((crop[:, :HALF], crop[:, HALF:])):
                if h.mean() < 60:  # the box on black background
                    probs[i, k, NOT_A_HALF] = 1.0
                else:
                    probs[i, k, _blobs(h)] = 0.97
                    probs[i, k, NOT_A_HALF] = 0.03
        return probs

    tiles = read_tiles(frame, boxes, fake_reader)
    assert [t.face for t in tiles] == ["up", "down"]
    up = tiles[0]
    assert sorted(up.pips) == [1, 4] and up.certain
    # Each half's centre lies on the half that was read.
    for half in up.halves:
        x, y = half.center
        patch = image[int(y) - 20 : int(y) + 20, int(x) - 20 : int(x) + 20]
        n, _ = cv2.connectedComponents((patch < 100).astype(np.uint8)[2:-2, 2:-2])
        assert n - 1 == half.pips


def test_a_picture_s_boxes_are_each_read_once_and_given_back_in_the_order_asked() -> None:
    asked: list[int] = []

    def counting_reader(picture: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        asked.extend(int(q[0][0]) for q in quads)
        return np.stack([np.full((2, 9), q[0][0]) for q in quads]) if quads else np.zeros((0, 2, 9))

    picture, other = np.zeros((100, 100), np.uint8), np.zeros((100, 100), np.uint8)
    a, b, c = (obb_corners(x, 50, 20, 10, 0) for x in (20, 50, 80))
    read = ReadOnce(counting_reader)
    first = read(picture, [a, b])
    again = read(picture, [c, a.copy(), b, c])
    assert asked == [int(a[0][0]), int(b[0][0]), int(c[0][0])]  # (c read once though asked twice)
    assert [float(p[0, 0]) for p in again] == [c[0][0], a[0][0], b[0][0], c[0][0]]
    assert np.array_equal(again[1:3], first)
    read(other, [a])  # another picture: its boxes are its own
    assert asked[-1] == int(a[0][0]) and len(asked) == 4
    assert read(picture, []).shape == (0, 2, 9)


def test_a_box_the_reader_refuses_gives_the_boxes_it_suppressed_a_second_look() -> None:
    image, corners = _drawn_tile(20)
    frame = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    axis = np.array([math.cos(math.radians(20)), math.sin(math.radians(20))])

    def along(shift: float) -> np.ndarray:
        x, y = np.array([150.0, 150.0]) + axis * shift
        return obb_corners(x, y, 120, 60, math.radians(20))

    # The best box lies a quarter tile off (IoU 0.6 with the tile: it suppresses the right box), a
    # near copy of it comes next, then the right box.
    candidates = [Box(along(30), 0.9, 0), Box(along(33), 0.85, 0), Box(corners, 0.8, 0)]
    read: list[np.ndarray] = []

    def fake_reader(frame: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        probs = np.zeros((len(quads), 2, 8))
        for i, quad in enumerate(quads):
            read.append(quad)
            crop, _ = rectify(grey, quad)
            if min(crop[:, :4].mean(), crop[:, -4:].mean()) < 60:  # an end over bare table: no tile
                probs[i, :, NOT_A_HALF] = 1.0
                continue
            for k, h in enumerate((crop[:, :HALF], crop[:, HALF:])):
                probs[i, k, _blobs(h)] = 0.97
                probs[i, k, NOT_A_HALF] = 0.03
        return probs

    assert read_tiles(frame, rotated_nms(candidates, 0.45), fake_reader) == []
    read.clear()
    tiles = read_tiles(frame, candidates, fake_reader, nms_iou=0.45)
    assert len(tiles) == 1 and sorted(tiles[0].pips) == [1, 4]
    assert polygon_iou(np.array(tiles[0].corners), corners) > 0.99
    # The refused box's near copy is not read: the right box is the only second look.
    assert len(read) == 2 and polygon_iou(read[1], corners) > 0.99


def test_a_divider_across_a_plain_tile_is_seen_and_a_plain_back_shows_none() -> None:
    import cv2

    from scorer.vision.reader import shows_divider

    image = np.full((200, 300), 80, np.uint8)
    # A blank double turned 30 degrees, and a plain back beside it; both on a noisy table.
    rng = np.random.default_rng(0)
    image = np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    blank = cv2.boxPoints(((90.0, 100.0), (60.0, 30.0), 30.0))
    back = cv2.boxPoints(((220.0, 100.0), (60.0, 30.0), -10.0))
    for box in (blank, back):
        cv2.fillConvexPoly(image, box.astype(np.int32), 225)
    ends = cv2.boxPoints(((90.0, 100.0), (3.0, 26.0), 30.0))
    cv2.fillConvexPoly(image, ends.astype(np.int32), 40)
    assert shows_divider(image, blank) and not shows_divider(image, back)
    assert shows_divider(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), blank)


def _reader_of(readings: dict[int, list[tuple[int, float]]], classes: int):
    """A fake reader: box i's halves read as ``readings[i]`` (class, probability), the rest "no tile"."""

    def read(frame: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        probs = np.zeros((len(quads), 2, classes))
        for i in range(len(quads)):
            for k, (label, p) in enumerate(readings[i]):
                probs[i, k, label] = p
                probs[i, k, NOT_A_HALF] = 1 - p
        return probs

    return read


def test_a_box_taken_for_a_back_is_a_face_where_the_reader_is_sure_of_pips_on_it() -> None:
    frame = np.full((300, 300, 3), 200, np.uint8)
    back = obb_corners(100, 100, 80, 40, 0)
    boxes = [Box(back, 0.9, 1), Box(obb_corners(100, 200, 80, 40, 0), 0.8, 1), Box(obb_corners(220, 150, 80, 40, 0), 0.7, 1)]
    readings = {
        0: [(0, 0.97), (1, 0.96)],  # a [0|1] whose face the detector took for a back
        1: [(0, 0.99), (0, 0.99)],  # a plain back reads as blank: no pips, still a back
        2: [(2, 0.6), (3, 0.95)],  # pips, but not surely read: still a back
    }

    fake_reader = _reader_of(readings, classes=8)  # a reader from before "back"
    tiles = read_tiles(frame, boxes, fake_reader)
    assert [t.face for t in tiles] == ["up", "down", "down"]
    assert sorted(tiles[0].pips) == [0, 1] and tiles[0].certain


def test_a_reader_that_knows_backs_checks_the_detectors_faces_and_backs_both_ways() -> None:
    frame = np.full((340, 300, 3), 200, np.uint8)
    boxes = [
        Box(obb_corners(100, 60, 80, 40, 0), 0.9, 1),
        Box(obb_corners(100, 140, 80, 40, 0), 0.8, 1),
        Box(obb_corners(100, 220, 80, 40, 0), 0.8, 0),
        Box(obb_corners(220, 150, 80, 40, 0), 0.7, 1),
        Box(obb_corners(220, 240, 80, 40, 0), 0.6, 1),
        Box(obb_corners(100, 300, 80, 40, 0), 0.6, 1),
    ]
    readings = {
        0: [(0, 0.97), (0, 0.96)],  # a blank double, its divider only engraved, taken for a back
        1: [(BACK, 0.98), (BACK, 0.97)],  # a back the reader agrees with
        2: [(BACK, 0.9), (BACK, 0.8)],  # a box taken for a face that the reader sees is a back
        3: [(0, 0.7), (BACK, 0.3)],  # not a face on both halves, nor a back on either: asked about, no count read
        4: [(1, 0.75), (0, 0.8)],  # a face, its pips unsure: a face, and the players are asked
        5: [(BACK, 0.4), (1, 0.8)],  # a [0|1] whose blank half passes for a back: a back shows no pips
    }

    fake_reader = _reader_of(readings, classes=BACK + 1)
    tiles = read_tiles(frame, boxes, fake_reader)
    assert [t.face for t in tiles] == ["up", "down", "down", "up", "up", "up"]
    assert tiles[0].pips == (0, 0) and tiles[0].certain
    assert not tiles[3].certain and all(h.unread for h in tiles[3].halves)
    assert tiles[4].pips == (1, 0) and not tiles[4].certain
    assert tiles[5].pips[1] == 1 and not tiles[5].certain
    assert read_tiles(frame, [], fake_reader) == [] and read_tiles(frame, [], fake_reader, nms_iou=0.45) == []


def test_of_two_boxes_centred_on_one_tile_the_surer_is_kept() -> None:
    frame = np.full((300, 300, 3), 200, np.uint8)
    # A back and a box a quarter turn off on it (too little overlap for the NMS), and a back beside them.
    boxes = [
        Box(obb_corners(100, 100, 80, 40, 0), 0.9, 1),
        Box(obb_corners(103, 101, 80, 40, math.pi / 2), 0.6, 1),
        Box(obb_corners(100, 145, 80, 40, 0), 0.5, 1),
    ]
    assert polygon_iou(boxes[0].corners, boxes[1].corners) < 0.45
    backs = {i: [(BACK, 0.95), (BACK, 0.95)] for i in range(3)}
    tiles = read_tiles(frame, boxes, _reader_of(backs, classes=BACK + 1), nms_iou=0.45)
    assert [t.face for t in tiles] == ["down", "down"]
    assert [round(t.confidence, 1) for t in tiles] == [0.9, 0.5]


def test_a_box_far_smaller_than_the_tiles_read_surely_is_no_tile() -> None:
    frame = np.full((300, 300, 3), 200, np.uint8)
    # Three tiles 80 px long read surely, a 30 px box and a 44 px one (a tile seen further off under a
    # tilt is never half the size of the others).
    boxes = [Box(obb_corners(60, 60 + 50 * i, 80, 40, 0), 0.9, 0) for i in range(3)]
    boxes += [Box(obb_corners(220, 60, 30, 15, 0), 0.8, 1), Box(obb_corners(220, 160, 44, 22, 0), 0.8, 0)]
    readings = {i: [(1, 0.95), (2, 0.95)] for i in range(5)}
    tiles = read_tiles(frame, boxes, _reader_of(readings, classes=BACK + 1))
    assert sorted(round(float(np.hypot(*np.subtract(t.corners[1], t.corners[0])))) for t in tiles) == [44, 80, 80, 80]
    # With fewer than three tiles read surely there is no size to go by: the small box stays.
    assert len(read_tiles(frame, boxes[:1] + boxes[3:4], _reader_of(readings, classes=BACK + 1))) == 2


def _tile_read(length: float, pips: tuple[int, int], confidence: float) -> TileDetection:
    corners = ((0.0, 0.0), (length, 0.0), (length, length / 2), (0.0, length / 2))
    halves = tuple(HalfReading(p, (length * (0.25 + 0.5 * k), length / 4), confidence) for k, p in enumerate(pips))
    return TileDetection(corners, "up", 0.9, (halves[0], halves[1]))


def test_a_blank_half_on_a_small_tile_needs_a_higher_bar_to_be_sure() -> None:
    # A single pale pip on a small tile is a speck the reader may miss and still call the half blank.
    assert not _tile_read(SMALL_FOR_A_BLANK_PX - 3, (0, 6), 0.95).certain
    assert _tile_read(SMALL_FOR_A_BLANK_PX - 3, (0, 6), SURE_BLANK).certain
    assert _tile_read(SMALL_FOR_A_BLANK_PX - 3, (1, 6), 0.95).certain
    assert _tile_read(SMALL_FOR_A_BLANK_PX + 5, (0, 6), 0.95).certain
    small = _tile_read(SMALL_FOR_A_BLANK_PX - 3, (3, 0), 0.95)
    assert small.half_certain(0) and not small.half_certain(1)
    assert not _tile_read(SMALL_FOR_A_BLANK_PX + 5, (0, 6), CERTAIN - 0.01).certain
    # A back taken for the double blank is taken as surely read, whatever its size.
    assert _tile_read(SMALL_FOR_A_BLANK_PX - 3, (0, 0), 0.5).as_blank_double().certain


def test_the_live_input_size_follows_the_tiles_length_with_some_slack() -> None:
    # A 1280 px frame: tiles 62 px long are ~26 px in a 544 px input already.
    assert fitted_input_size([60, 62, 64], 1280, 544) == 544
    # 48 px: 693 px would bring them to 26; 39 px: 853.
    assert fitted_input_size([48] * 5, 1280, 544) == 704
    assert fitted_input_size([39] * 5, 1280, 544) == 864
    # Once there, a few px more or less (a box cut short under an arm) change nothing ...
    assert fitted_input_size([47, 50], 1280, 704) == 704
    # ... the camera brought closer does, down to the size still images are read at; no further up than the largest.
    assert fitted_input_size([150] * 3, 1280, 704) == 544
    assert fitted_input_size([20] * 3, 1280, 544) == 960
    assert fitted_input_size([], 1280, 704) == fitted_input_size([20], 1280, 704) == 704  # (one box may be a stray one)


def test_a_boxs_long_and_short_sides_whichever_way_it_lies_and_whatever_holds_its_corners() -> None:
    from scorer.vision.geometry import long_side, short_side

    lying = [(10.0, 10.0), (50.0, 10.0), (50.0, 30.0), (10.0, 30.0)]
    standing = np.array([[10.0, 10.0], [30.0, 10.0], [30.0, 50.0], [10.0, 50.0]])
    for box in (lying, standing, np.array(lying).reshape(8)):
        assert long_side(box) == pytest.approx(40) and short_side(box) == pytest.approx(20)
