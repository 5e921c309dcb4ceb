"""Where frames come from, behind one small interface: a Pi camera (picamera2, imported only on a Pi),
a USB camera or a video file (cv2.VideoCapture), or a folder of images (recordings and tests).

``read()`` returns the next BGR frame, or raises CameraError with a clear message when the camera is
gone (unplugged, a video that ended); the device shows the message and calls ``open_camera`` again.

>>> import tempfile, numpy, cv2, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> cv2.imwrite(str(folder / "0001.png"), numpy.zeros((72, 128, 3), numpy.uint8))
True
>>> camera = open_camera(str(folder))
>>> camera.read().shape
(72, 128, 3)
>>> camera.read().shape  # a recording that ends holds its last frame: the table as it was left
(72, 128, 3)
>>> open_camera(str(folder / "0002.png"))
Traceback (most recent call last):
...
device.camera.CameraError: bad camera source '.../0002.png': expected picamera, usb:N, a video file or a folder of images
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp"}
MAX_PIXELS = 1 << 27
"""The most pixels an image file may claim (134 million, more than any camera's photo)."""


class CameraError(RuntimeError):
    """No frame can be had: the message says why (unplugged, unreadable, ended)."""


class Camera(Protocol):
    """A source of BGR frames."""

    def read(self) -> NDArray[Any]: ...

    def close(self) -> None: ...


class FolderCamera:
    """The images in a folder, in name order, once, the last one held as a still table (or round and
    round with ``loop``)."""

    def __init__(self, folder: Path, loop: bool = False) -> None:
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"the recording {folder} holds no images")
        self.folder, self.loop, self.at = folder, loop, 0
        self.last: NDArray[Any] | None = None

    def read(self) -> NDArray[Any]:
        if self.at == len(self.paths):
            if not self.loop:
                if self.last is None:
                    raise CameraError(f"the recording {self.folder} has no more frames")
                return self.last.copy()
            self.at = 0
        path = self.paths[self.at]
        self.at += 1
        try:
            frame = read_image(path)
        except ValueError as error:
            raise CameraError(f"the frame {path} {error}") from None
        if frame is None:
            raise CameraError(f"the frame {path} cannot be read as an image")
        self.last = frame
        return frame.copy()

    def close(self) -> None:
        pass


def read_image(path: str | Path) -> NDArray[Any] | None:
    """The image file at ``path`` as a BGR frame, or None if OpenCV does not read it; ValueError saying why
    for a file that OpenCV fails on or that is refused before decoding (see ``_precheck``)."""
    name = str(path)
    try:
        _precheck(name)
        return cv2.imread(name, cv2.IMREAD_COLOR)
    except OSError as error:
        raise ValueError(f"cannot be read: {error.strerror or error}") from None
    except cv2.error as error:  # a header claiming more pixels than memory holds, among others
        raise ValueError(f"cannot be read as an image: {error.err or error}") from None


def _precheck(name: str) -> None:
    """Refuse, with ValueError, the small files OpenCV would spend gigabytes on, and a JPEG cut short (which
    OpenCV would decode with its missing part grey, saying so only on standard error).

    A JPEG cut short is decoded to the full size its header claims, so 1 KB could fill 2.7 GB: its size is
    read first from a decoding at an eighth of the scale. OpenCV 5 sets aside memory for the length a PNG
    chunk claims before reading it, so 126 bytes could take 1.8 GB: each chunk must lie within the file.
    """
    with open(name, "rb") as file:
        head = file.read(8)
        if head == b"\x89PNG\r\n\x1a\n":
            size, at = os.fstat(file.fileno()).st_size, 8
            while at + 8 <= size:
                file.seek(at)
                length, kind = int.from_bytes(file.read(4), "big"), file.read(4)
                at += 12 + length  # length, type, data, CRC
                if at > size:
                    raise ValueError(f"is cut short or damaged: a PNG chunk claims {length:,} bytes, past the "
                                     "end of the file")
                if kind == b"IEND":
                    return
            raise ValueError("is cut short: the PNG ends before its image does")
    if head[:2] == b"\xff\xd8":
        with open(name, "rb") as file:
            data = file.read()
        if data.rfind(b"\xff\xd9") < data.rfind(b"\xff\xda"):  # no end after the last scan's start
            raise ValueError("is cut short: the JPEG ends before its image does")
        small = cv2.imread(name, cv2.IMREAD_REDUCED_GRAYSCALE_8)
        if small is not None and small.size * 64 > MAX_PIXELS:
            height, width = small.shape[:2]
            raise ValueError(f"claims about {width * 8}x{height * 8} pixels, more than an image may have "
                             f"({MAX_PIXELS:,})")


class CaptureCamera:
    """A USB camera (by index) or a video file, through cv2.VideoCapture."""

    def __init__(self, source: int | str, width: int, height: int) -> None:
        self.source = source
        self.capture = cv2.VideoCapture(source)
        if not self.capture.isOpened():
            raise CameraError(f"the camera {source!r} cannot be opened (is it plugged in?)")
        if isinstance(source, int):
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> NDArray[Any]:
        ok, frame = self.capture.read()
        if not ok or frame is None:
            raise CameraError(f"the camera {self.source!r} gives no frames (unplugged, or the video ended)")
        return np.asarray(frame)

    def close(self) -> None:
        self.capture.release()


class PiCamera:
    """The Raspberry Pi camera through picamera2 (only importable on a Pi): the main stream at the size
    asked for, from the sensor mode ``sensor_mode`` picks (the whole field of view, binned)."""

    def __init__(self, width: int, height: int) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise CameraError("picamera2 is not installed: it comes with Raspberry Pi OS") from error
        try:
            self.camera: Any = Picamera2()
            self.mode = sensor_mode(self.camera.sensor_modes, (width, height))
            config = self.camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"},
                sensor={"output_size": self.mode["size"], "bit_depth": self.mode["bit_depth"]})
            self.camera.configure(config)
            self.camera.start()
        except TypeError as error:  # a picamera2 from before the sensor configuration
            raise CameraError(f"picamera2 cannot choose the sensor mode ({error}): update Raspberry Pi OS") from error
        except (RuntimeError, IndexError, ValueError) as error:
            raise CameraError(f"the Pi camera cannot be started: {error}") from error

    def read(self) -> NDArray[Any]:
        try:
            return np.asarray(self.camera.capture_array("main"))  # RGB888 is B, G, R in memory
        except RuntimeError as error:
            raise CameraError(f"the Pi camera gives no frames: {error}") from error

    def close(self) -> None:
        self.camera.close()


def sensor_mode(modes: list[dict[str, Any]], size: tuple[int, int]) -> dict[str, Any]:
    """Of a sensor's modes (picamera2's ``sensor_modes``), the one to stream a main stream of ``size``
    (width, height) from: of those that see the most of the sensor (``crop_limits``: binned, not
    cropped), the smallest at least ``size`` both ways, else the largest. A Camera Module 3 streams
    2304x1296 at up to 56 frames a second rather than its 1536x864 (a crop of the middle) or its full
    4608x2592 (14 a second); ValueError when there are no modes.

    >>> imx708 = [{"size": (1536, 864), "bit_depth": 10, "crop_limits": (768, 432, 3072, 1728)},
    ...           {"size": (2304, 1296), "bit_depth": 10, "crop_limits": (0, 0, 4608, 2592)},
    ...           {"size": (4608, 2592), "bit_depth": 10, "crop_limits": (0, 0, 4608, 2592)}]
    >>> sensor_mode(imx708, (2304, 1296))["size"], sensor_mode(imx708, (1280, 720))["size"]
    ((2304, 1296), (2304, 1296))
    >>> sensor_mode(imx708, (3840, 2160))["size"], sensor_mode(imx708, (6000, 4000))["size"]
    ((4608, 2592), (4608, 2592))
    >>> sensor_mode([{"size": (640, 480), "bit_depth": 8}, {"size": (1920, 1080), "bit_depth": 8}], (2304, 1296))["size"]
    (1920, 1080)
    """
    if not modes:
        raise ValueError("the camera lists no sensor modes")

    def seen(mode: dict[str, Any]) -> int:  # a mode that gives no crop limits sees its own size
        _, _, w, h = mode.get("crop_limits", (0, 0, *mode["size"]))
        return int(w * h)

    def pixels(mode: dict[str, Any]) -> int:
        return int(mode["size"][0] * mode["size"][1])

    widest = max(map(seen, modes))
    whole = [m for m in modes if seen(m) == widest]
    enough = [m for m in whole if m["size"][0] >= size[0] and m["size"][1] >= size[1]]
    return min(enough, key=pixels) if enough else max(whole, key=pixels)


def open_camera(source: str, width: int = 2304, height: int = 1296, loop: bool = False) -> Camera:
    """The camera ``source`` names: ``picamera``, ``usb:N``, a video file, or a folder of images."""
    if source == "picamera":
        return PiCamera(width, height)
    if source.startswith("usb:"):
        index = source[4:]
        if not index.isdigit():
            raise CameraError(f"bad camera source {source!r}: a USB camera is usb:N, like usb:0")
        return CaptureCamera(int(index), width, height)
    path = Path(source)
    if path.is_dir():
        return FolderCamera(path, loop)
    if path.is_file():
        return CaptureCamera(str(path), width, height)
    raise CameraError(f"bad camera source {source!r}: expected picamera, usb:N, a video file or a folder of images")
