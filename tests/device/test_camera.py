"""Frame sources: recordings on disk, the Pi camera (against a stand-in for picamera2), and clear errors for
cameras that are not there."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from device.camera import CameraError, open_camera
from device.config import CameraSection


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


IMX708_MODES = [  # a Camera Module 3 as picamera2 lists it
    {"size": (1536, 864), "bit_depth": 10, "fps": 120.13, "crop_limits": (768, 432, 3072, 1728)},
    {"size": (2304, 1296), "bit_depth": 10, "fps": 56.03, "crop_limits": (0, 0, 4608, 2592)},
    {"size": (4608, 2592), "bit_depth": 10, "fps": 14.35, "crop_limits": (0, 0, 4608, 2592)},
]


class FakePicamera2:
    """picamera2's ``Picamera2`` as the adapter uses it: what it is asked for, and RGB888 frames of that size."""

    made: list[FakePicamera2] = []

    def __init__(self) -> None:
        self.sensor_modes = IMX708_MODES
        self.asked: dict[str, Any] = {}
        self.configured: dict[str, Any] | None = None
        self.started = self.closed = False
        FakePicamera2.made.append(self)

    def create_video_configuration(self, main: dict[str, Any], sensor: dict[str, Any] | None = None) -> dict[str, Any]:
        self.asked = {"main": main, "sensor": sensor}
        return {"main": dict(main), "sensor": sensor}

    def configure(self, config: dict[str, Any]) -> None:
        self.configured = config

    def start(self) -> None:
        self.started = True

    def capture_array(self, name: str) -> np.ndarray:
        assert self.started and self.configured is not None and name == "main"
        width, height = self.configured["main"]["size"]
        return np.zeros((height, width, 3), np.uint8)

    def close(self) -> None:
        self.closed = True


@pytest.fixture(name="picamera2")
def picamera2_fixture(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.made = []
    return FakePicamera2


def test_the_pi_camera_streams_the_configured_size_from_the_whole_binned_view(picamera2: type[FakePicamera2]) -> None:
    camera_config = CameraSection()
    camera = open_camera("picamera", camera_config.width, camera_config.height)
    made = picamera2.made[0]
    assert made.asked == {"main": {"size": (2304, 1296), "format": "RGB888"},
                          "sensor": {"output_size": (2304, 1296), "bit_depth": 10}}
    assert camera.read().shape == (1296, 2304, 3)
    camera.close()
    assert made.closed


def test_a_smaller_stream_keeps_the_whole_view_and_a_larger_one_the_full_sensor(picamera2: type[FakePicamera2]) -> None:
    open_camera("picamera", 1280, 720)
    open_camera("picamera", 3840, 2160)
    assert [made.asked["sensor"]["output_size"] for made in picamera2.made] == [(2304, 1296), (4608, 2592)]
    assert picamera2.made[0].asked["main"]["size"] == (1280, 720)


def test_an_old_picamera2_is_a_clear_error(picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch) -> None:
    def without_sensor(self: FakePicamera2, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    monkeypatch.setattr(picamera2, "create_video_configuration", without_sensor)
    with pytest.raises(CameraError, match="cannot choose the sensor mode.*update Raspberry Pi OS"):
        open_camera("picamera")
