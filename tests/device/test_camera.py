"""Frame sources: recordings on disk and clear errors for cameras that are not there."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from device.camera import CameraError, open_camera


def frames(count: int) -> list[np.ndarray]:
    return [np.full((72, 128, 3), 20 * n, np.uint8) for n in range(count)]


def test_a_folder_plays_in_name_order_and_can_loop(tmp_path: Path) -> None:
    for n, frame in enumerate(frames(3)):
        cv2.imwrite(str(tmp_path / f"{n:03}.png"), frame)
    (tmp_path / "notes.txt").write_text("not a frame")
    camera = open_camera(str(tmp_path), loop=True)
    assert [int(camera.read()[0, 0, 0]) for _ in range(5)] == [0, 20, 40, 0, 20]


def test_a_folder_that_ends_holds_its_last_frame(tmp_path: Path) -> None:
    for n, frame in enumerate(frames(3)):
        cv2.imwrite(str(tmp_path / f"{n:03}.png"), frame)
    camera = open_camera(str(tmp_path))
    assert [int(camera.read()[0, 0, 0]) for _ in range(5)] == [0, 20, 40, 40, 40]


def test_a_video_file_plays_then_says_it_ended(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (128, 72))
    for frame in frames(4):
        writer.write(frame)
    writer.release()
    camera = open_camera(str(path))
    assert [camera.read().shape for _ in range(4)] == [(72, 128, 3)] * 4
    with pytest.raises(CameraError, match="gives no frames"):
        camera.read()
    camera.close()


def test_an_unreadable_frame_is_named(tmp_path: Path) -> None:
    (tmp_path / "0001.png").write_bytes(b"not a png")
    with pytest.raises(CameraError, match="0001.png cannot be read"):
        open_camera(str(tmp_path)).read()


@pytest.mark.parametrize(
    ("source", "message"),
    [("usb:x", "usb:N"), ("/no/such/thing", "bad camera source"), ("usb:57", "cannot be opened")],
)
def test_missing_cameras_are_clear_errors(source: str, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        open_camera(source)


def test_an_empty_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="holds no images"):
        open_camera(str(tmp_path))
