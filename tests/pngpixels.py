"""A PNG's pixels, read with the standard library, so that tests can compare two pictures pixel by pixel.

Only what resvg writes is read: 8 bits a channel, not interlaced, any of the five row filters.
Pure Python: meant for small pictures (a few hundred thousand pixels take a fraction of a second).
"""

from __future__ import annotations

import struct
import zlib

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}
"""Bytes a pixel, by the PNG colour type (grey, RGB, grey and alpha, RGBA)."""


def pixels(png: bytes) -> tuple[int, int, bytes]:
    """Width, height and the raw channel bytes, row after row."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, packed = 8, b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0, "only 8-bit, non-interlaced PNGs"
        elif kind == b"IDAT":
            packed += body
        at += 12 + length
    step = CHANNELS[colour]
    return width, height, _unfiltered(zlib.decompress(packed), width * step, height, step)


def _unfiltered(data: bytes, stride: int, height: int, step: int) -> bytes:
    rows: list[bytes] = []
    above = bytearray(stride)
    for y in range(height):
        kind, row = data[y * (stride + 1)], bytearray(data[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = row[x - step] if x >= step else 0
            corner = above[x - step] if x >= step else 0
            if kind == 1:
                row[x] = (row[x] + left) & 255
            elif kind == 2:
                row[x] = (row[x] + above[x]) & 255
            elif kind == 3:
                row[x] = (row[x] + (left + above[x]) // 2) & 255
            elif kind == 4:
                row[x] = (row[x] + _paeth(left, above[x], corner)) & 255
        rows.append(bytes(row))
        above = row
    return b"".join(rows)


def _paeth(left: int, above: int, corner: int) -> int:
    guess = left + above - corner
    near_left, near_above, near_corner = abs(guess - left), abs(guess - above), abs(guess - corner)
    if near_left <= near_above and near_left <= near_corner:
        return left
    return above if near_above <= near_corner else corner
