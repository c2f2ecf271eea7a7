"""Decoding picture files for the command line, with clear errors instead of tracebacks."""
from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

MAX_MEGAPIXELS = 120.0  # a 50-MP phone still reads fine; beyond this, refuse before decoding
# What OpenCV decodes, and the photo formats it does not (an iPhone's HEIC, AVIF, raw), which
# get a message saying how to convert them rather than "unknown format".
PICTURE_SUFFIXES = (".bmp", ".jpeg", ".jpg", ".png", ".tif", ".tiff", ".webp")
FOREIGN_SUFFIXES = (".avif", ".dng", ".heic", ".heif", ".raw")
FOREIGN_BRANDS = (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1", b"avif", b"avis")
CONVERT = "export {} as JPEG (an iPhone takes JPEGs with Settings > Camera > Formats > Most Compatible)"


class ImageError(Exception):
    """A file that cannot be read as a picture; the message names the file and the reason."""


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header, without decoding; None if not found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                i += 2 if marker != 0xFF else 1
                continue
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return w, h
            i += 2 + length
    return None


def truncated(data: bytes) -> bool:
    """A JPEG without its end marker or a PNG without its end chunk: some decoders fill the
    missing part with grey and read on, and half a picture would be read as a whole one."""
    if data[:2] == b"\xff\xd8":
        return b"\xff\xd9" not in data[-1024:]  # cameras may pad after the marker
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-64:]
    return False


def pictures_in(folder: str | Path) -> list[Path]:
    """The pictures in `folder`, by name; an ImageError says why there are none: no such
    folder, nothing in it, or only photos in a format OpenCV cannot decode."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ImageError(f"{folder}: no such folder")
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    if pictures := [p for p in files if p.suffix.lower() in PICTURE_SUFFIXES]:
        return pictures
    if foreign := [p for p in files if p.suffix.lower() in FOREIGN_SUFFIXES]:
        raise ImageError(f"{folder}: {len(foreign)} photos in a format zonkcam cannot read "
                         f"({foreign[0].suffix}): {CONVERT.format('them')}")
    raise ImageError(f"{folder}: no pictures in it (looked for {', '.join(PICTURE_SUFFIXES)})")


def read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError as exc:
        raise ImageError(f"{path}: no such file") from exc
    except IsADirectoryError as exc:
        raise ImageError(f"{path}: is a folder, not a picture") from exc
    except OSError as exc:
        raise ImageError(f"{path}: cannot read ({exc.strerror})") from exc


def decode(path: str | Path, data: bytes, max_megapixels: float = MAX_MEGAPIXELS) -> np.ndarray:
    """BGR pixels of an encoded picture (EXIF rotation applied)."""
    size = header_size(data)
    if size and size[0] * size[1] > max_megapixels * 1e6:
        mp = size[0] * size[1] / 1e6
        raise ImageError(f"{path}: picture is {size[0]}×{size[1]} ({mp:.0f} MP), more than the "
                         f"{max_megapixels:.0f} MP zonkcam reads; scale it down first")
    if data[4:8] == b"ftyp" and data[8:12] in FOREIGN_BRANDS:
        raise ImageError(f"{path}: a HEIF/AVIF photo, which OpenCV cannot decode: {CONVERT.format('it')}")
    if truncated(data):
        raise ImageError(f"{path}: the picture is cut short (a truncated or corrupt file)")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:
        raise ImageError(f"{path}: not a picture OpenCV can decode (corrupt or unknown format)")
    return image


def check_writable(path: str | Path) -> None:
    """Refuse an output picture name OpenCV has no encoder for, before any work is done."""
    if not cv2.haveImageWriter(str(path)):
        raise ImageError(f"{path}: cannot write a picture of this kind; name it .jpg or .png")


def write_image(path: str | Path, image: np.ndarray) -> None:
    check_writable(path)
    try:
        written = cv2.imwrite(str(path), image)
    except cv2.error as exc:
        raise ImageError(f"{path}: cannot write ({exc.err})") from None
    if not written:
        raise ImageError(f"{path}: cannot write (no such folder, or not allowed)")
