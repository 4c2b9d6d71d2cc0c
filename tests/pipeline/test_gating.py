"""The gate: a still table is read once; a change is read once the table is quiet again."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scorer.pipeline.gating import Gate


def _frames(gate: Gate, image: np.ndarray, n: int) -> list[bool]:
    return [gate.update(image.copy()) for _ in range(n)]


def test_a_still_table_is_read_once_and_a_faint_change_once_more_when_quiet() -> None:
    gate = Gate(fps=10)
    table = np.full((180, 320, 3), 90, np.uint8)
    fired = _frames(gate, table, 12)
    assert fired.count(True) == 1
    # A tile put down by an arm the colour of the table: too few pixels move to call the frame
    # moving (0.3 % of it), yet the table changed -- read once it has stayed quiet.
    table[80:88, 150:162] = 200
    fired = _frames(gate, table, 12)
    assert fired.count(True) == 1 and not gate.moving
    # Nothing more happens: nothing more is read.
    assert not any(_frames(gate, table, 20))


def test_the_motion_since_the_last_read_is_kept_where_a_still_look_found_nothing_changed() -> None:
    gate = Gate(fps=10)
    table = np.full((180, 320, 3), 90, np.uint8)
    assert _frames(gate, table, 12).count(True) == 1
    for k in range(4):  # an arm reaches over the left of the table and leaves it as it was
        arm = table.copy()
        arm[40:140, 0:100] = 160 + 20 * (k % 2)
        gate.update(arm)
    assert not any(_frames(gate, table, 8))  # still, nothing changed: no read
    # Then the change shows, too faint to be motion (a small tile, seen only once the picture settled):
    # the read that follows knows where the arm was.
    table[80:88, 60:72] = 200
    assert _frames(gate, table, 12).count(True) == 1
    assert gate.motion_mask is not None and gate.motion_mask[10:30, 2:20].any()
    # An arm that touched nothing is forgotten once another motion starts: the next read knows only
    # the arm that put its tile down.
    for k in range(4):
        arm = table.copy()
        arm[40:140, 0:100] = 160 + 20 * (k % 2)
        gate.update(arm)
    assert not any(_frames(gate, table, 8))
    for k in range(4):
        arm = table.copy()
        arm[40:140, 220:320] = 160 + 20 * (k % 2)
        gate.update(arm)
    table[80:100, 250:280] = 200
    assert _frames(gate, table, 8).count(True) == 1
    assert gate.motion_mask[10:30, 2:20].sum() == 0 and gate.motion_mask[10:30, 115:155].any()


def test_settled_at_tells_which_of_two_places_moved_last() -> None:
    gate = Gate(fps=10)
    table = np.full((180, 320, 3), 90, np.uint8)
    _frames(gate, table, 5)
    for k in range(4):  # an arm over the left place, then over the right one
        arm = table.copy()
        arm[40:140, 40:120] = 160 + 20 * (k % 2)
        gate.update(arm)
    for k in range(4):
        arm = table.copy()
        arm[40:140, 200:280] = 160 + 20 * (k % 2)
        gate.update(arm)
    _frames(gate, table, 6)
    left = gate.settled_at((40 / 320, 40 / 180, 120 / 320, 140 / 180))
    right = gate.settled_at((200 / 320, 40 / 180, 280 / 320, 140 / 180))
    assert left is not None and right is not None and right - left >= 0.3


def test_a_black_tile_on_a_dark_blue_cloth_is_a_change() -> None:
    gate = Gate(fps=10)
    cloth = np.zeros((180, 320, 3), np.uint8)
    cloth[:] = (110, 30, 10)  # BGR: dark blue, grey about 33
    _frames(gate, cloth, 12)
    # A black tile put down: in grey (28 against 33) less than the 8 levels that count as motion.
    cloth[80:100, 140:180] = (28, 28, 28)
    for k in range(4):  # the arm
        arm = cloth.copy()
        arm[0:100, 150:170] = 200
        gate.update(arm)
    assert any(_frames(gate, cloth, 8))


def test_a_black_tile_on_a_dark_cloth_in_a_dim_room_is_a_change() -> None:
    # A dim room, as the `cross` game videos film one: a dark green cloth (BGR about (22, 27, 11),
    # mottled by 3 levels, noise of two), a black tile 48 px long (13, 15, 11) with two white pips put
    # down -- at the gate's scale (a picture 160 px wide) it differs by a few levels, under the 8 that
    # count as motion, yet well over a twelfth of the picture's contrast.
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:720, 0:1280]
    mottle = 3 * np.sin(xx / 41.0) * np.cos(yy / 33.0)
    cloth = np.stack([22 + mottle, 27 + mottle, 11 + 0 * mottle], axis=2)

    def frame(img):
        return np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)

    gate = Gate(fps=10)
    assert sum(gate.update(frame(cloth)) for _ in range(12)) == 1
    laid = cloth.copy()
    laid[360:408, 560:584] = (13, 15, 11)  # the tile
    laid[370:374, 570:574] = laid[394:398, 570:574] = 170  # its pips
    for k in range(4):  # the arm
        arm = laid.copy()
        arm[408:720, 540:600] = 150 + 20 * (k % 2)
        gate.update(frame(arm))
    assert sum(gate.update(frame(laid)) for _ in range(12)) == 1
    # The same dim table left alone, its noise and all: nothing more is read.
    assert not any(gate.update(frame(laid)) for _ in range(30))


def test_a_glitch_of_the_whole_picture_is_not_where_an_arm_was() -> None:
    gate = Gate(fps=10)
    table = np.full((180, 320, 3), 90, np.uint8)
    _frames(gate, table, 12)
    for k in range(4):  # an arm from the left edge
        arm = table.copy()
        arm[60:120, 0 : 60 + 20 * k] = 170
        gate.update(arm)
    glitch = table.copy()
    glitch[:, 190:] = 140  # one frame with the right 40 % lit up (the median brightness unchanged)
    gate.update(glitch)
    table[80:100, 20:50] = 200  # (the arm put a tile down: the still table is read)
    assert _frames(gate, table, 8).count(True) == 1
    assert gate.motion_mask is not None
    assert gate.motion_mask[:, 0].any() and not gate.motion_mask[:, -1].any() and gate.motion_mask.mean() < 0.2


def test_a_bright_arm_over_a_near_black_table_is_seen_where_it_reached_in() -> None:
    # A near-black cloth (median 6 grey levels, as `cross` game 605 films one): a skin-toned arm coming
    # in from the left lifts the picture's median by a fraction of a level a frame -- 4-7 % -- which is
    # no exposure step; its motion, from the edge it crossed to the hand, is where the arm was.
    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[0:180, 0:320]
    cloth = np.stack([2 + 4 * xx / 320 + 4 * yy / 180] * 3, axis=2)

    def frame(img):
        return np.clip(img + rng.normal(0, 0.5, img.shape), 0, 255).astype(np.uint8)

    gate = Gate(fps=10)
    assert sum(gate.update(frame(cloth)) for _ in range(12)) == 1
    laid = cloth.copy()
    laid[86:94, 300:316] = 220  # the tile
    for k in range(6):  # the arm sliding in from the left edge to the tile, then gone (a frame at 15 fps)
        arm = laid.copy()
        arm[60:120, 0 : 60 + 48 * k] = (120, 140, 190)
        gate.update(frame(arm))
    assert sum(gate.update(frame(laid)) for _ in range(8)) == 1
    assert gate.motion_mask is not None and gate.motion_mask[30:60, 0].any()  # (the gate's picture is half as large)


def test_a_white_tile_on_a_glaring_white_table_is_a_change() -> None:
    gate = Gate(fps=10)
    glare = np.full((180, 320, 3), 252, np.uint8)  # blown out
    _frames(gate, glare, 12)
    # A white [6|6]: only its pips and divider are darker than the glare.
    for y in (84, 92, 100):
        for x in (150, 158, 172, 180):
            glare[y : y + 4, x : x + 4] = 30
    glare[80:108, 165:167] = 60
    for k in range(4):
        arm = glare.copy()
        arm[0:80, 150:180] = 120
        gate.update(arm)
    assert any(_frames(gate, glare, 8))



def _filmed(scenes: list[np.ndarray], path: Path) -> list[np.ndarray]:
    """The scenes as a camera under a 100 Hz lamp films them at 30 fps (the light 3.5 % up and down
    from frame to frame, clipped at 255, a little noise) and an mp4 recording plays them back."""
    rng = np.random.default_rng(0)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 30, (scenes[0].shape[1], scenes[0].shape[0]))
    for k, scene in enumerate(scenes):
        lit = scene * (1.0 + 0.0175 * (-1) ** k) + rng.normal(0, 1.5, scene.shape)
        writer.write(np.clip(lit, 0, 255).astype(np.uint8))
    writer.release()
    capture, frames = cv2.VideoCapture(str(path)), []
    while (read := capture.read())[0]:
        frames.append(read[1])
    return frames


def test_clipped_white_tiles_under_flickering_light_are_no_motion(tmp_path: Path) -> None:
    # Overexposed white tiles stay at 255 while the rest of the picture follows the light, and the
    # recording's encoder copies such unchanging blocks as they were: after the gain is undone their
    # rims differ by 8-9 levels from frame to frame, as much as a faint arm.  Read at every frame, the
    # table must still come to rest and be read once -- and a tile put down must still be a change.
    yy, xx = np.mgrid[0:270, 0:480]
    grain = 12 * np.sin(xx / 7.0 + 3 * np.sin(yy / 23.0))
    table = np.stack([120 + grain, 150 + grain, 190 + grain], axis=2)
    for x in range(60, 420, 60):
        table[100:124, x : x + 48] = 300  # white tiles, overexposed
        table[108:116, x + 10 : x + 14] = 40  # a pip
    laid = table.copy()
    laid[160:184, 200:248] = 300  # one more
    laid[168:176, 230:234] = 40
    arm = laid.copy()
    arm[184:270, 210:240] = 90
    frames = _filmed([table] * 40 + [arm] * 4 + [laid] * 40, tmp_path / "flicker.mp4")
    gate = Gate(fps=30)
    fired = [gate.update(frame) for frame in frames]
    assert fired[:40].count(True) == 1 and fired[44:].count(True) == 1 and not gate.moving


def test_an_overexposed_table_follows_the_light_by_its_unclipped_pixels(tmp_path: Path) -> None:
    # Most of the table is blown out, so the picture's median pixel is clipped and says the light never
    # changes; the rest (a dark cloth's border, the tiles) flickers.  Still, the table comes to rest; and
    # after the camera's exposure steps down, an ivory double blank put down on the glare is a change (the
    # glare, clipped before, may have been brighter than it looked -- but not darker; and with the light
    # stepped, what lay in the glare at the last read is read again).
    yy, xx = np.mgrid[0:270, 0:480]
    table = np.full((270, 480, 3), 320.0)
    table[:, :90] = np.stack([60 + 10 * np.sin(yy[:, :90] / 9.0)] * 3, axis=2)  # the cloth's border
    for x in range(120, 420, 70):
        table[40:64, x : x + 48] = 200  # ivory tiles
        table[48:56, x + 10 : x + 14] = 30
    laid = table.copy()
    laid[150:174, 250:298] = 215  # the double blank
    laid[150:174, 273:275] = 150  # its divider
    arm = laid.copy()
    arm[174:270, 260:290] = 120
    frames = _filmed([table] * 40 + [arm * 0.85] * 4 + [laid * 0.85] * 40, tmp_path / "overexposed.mp4")
    gate = Gate(fps=30)
    fired = [gate.update(frame) for frame in frames]
    assert fired[:40].count(True) == 1 and fired[44:].count(True) == 1 and not gate.moving


def test_a_shade_drifting_over_the_table_is_no_motion_an_arm_is() -> None:
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.uniform(60, 200, (360, 640, 3)).astype(np.float32), (0, 0), 2)
    gate = Gate(fps=15)
    _frames(gate, table.astype(np.uint8), 12)
    yy, xx = np.mgrid[0:360, 0:640]
    moving = []
    for k in range(16):  # someone leaning in: a soft shade up to 45 % dark, drifting right, for a second
        shade = 1 - 0.45 * np.sin(np.pi * k / 16) * np.exp(-(((xx - 200 - 8 * k) / 220) ** 2 + ((yy - 180) / 160) ** 2) * 1.5)
        gate.update((table * shade[..., None]).astype(np.uint8))
        moving.append(gate.moving)
    assert not any(moving)
    for k in range(4):  # an arm from the left edge
        arm = table.copy()
        arm[150:200, 0 : 100 + 40 * k] = 220
        gate.update(arm.astype(np.uint8))
    assert gate.moving


def test_a_dim_rooms_sensor_noise_is_no_motion_an_arm_and_a_tile_put_down_are() -> None:
    # A 640x480 webcam brightened back in a dim room: fresh noise of 40 grey levels on every pixel of
    # every frame.  The table stays still for the gate and is read; an arm over it is motion, and the
    # tile it put down is read once the table is quiet again.
    rng = np.random.default_rng(0)
    table = np.full((480, 640, 3), 90, np.uint8)

    def noisy(image: np.ndarray) -> np.ndarray:
        return np.clip(image + rng.normal(0.0, 40.0, image.shape), 0, 255).astype(np.uint8)

    gate = Gate(fps=10)
    assert [gate.update(noisy(table)) for _ in range(12)].count(True) == 1
    for k in range(4):
        arm = table.copy()
        arm[100:380, 0:200] = 170 + 20 * (k % 2)
        gate.update(noisy(arm))
        assert gate.moving
    table[200:240, 300:380] = 200
    assert [gate.update(noisy(table)) for _ in range(12)].count(True) == 1
    assert gate.motion_mask is not None and gate.motion_mask[40:80, 10:40].any()
    assert not any(gate.update(noisy(table)) for _ in range(20))


def test_a_faint_tile_put_down_under_a_flickering_lamp_is_read(tmp_path: Path) -> None:
    # A lamp's flicker moves every pixel a few levels from frame to frame: it is no sensor noise, and a
    # tile only 15 levels off the cloth, put down under it, is still a change.
    yy, xx = np.mgrid[0:270, 0:480]
    table = np.array([80.0, 100.0, 120.0]) + 12 * np.sin(xx / 7.0 + 3 * np.sin(yy / 23.0))[..., None]
    laid = table.copy()
    laid[120:144, 200:248] += 15
    gate = Gate(fps=30)
    fired = [gate.update(frame) for frame in _filmed([table] * 20 + [laid] * 20, tmp_path / "faint.mp4")]
    assert fired[:20].count(True) == 1 and True in fired[20:]
