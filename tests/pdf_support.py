"""The text of the sheets' PDFs, read without a PDF library: reportlab's streams decoded, and
the strings of an embedded TrueType font read through its ToUnicode map."""

from __future__ import annotations

import base64
import re
import zlib


def _decoded(header: bytes, body: bytes) -> bytes:
    length = re.search(rb"/Length (\d+)", header)
    if length is not None:  # the stream's own bytes: a font's may end in a space or a newline
        body = body[: int(length.group(1))]
    if b"ASCII85Decode" in header:
        body = base64.a85decode(body.strip().removesuffix(b"~>"))
    if b"FlateDecode" in header:
        body = zlib.decompress(body)
    return body


def pdf_objects(data: bytes) -> dict[int, tuple[bytes, bytes | None]]:
    """Each object of a reportlab PDF by number: its text before any stream, and the stream
    decoded (None for an object without one)."""
    out: dict[int, tuple[bytes, bytes | None]] = {}
    pattern = rb"(\d+) 0 obj\s*(.*?)(?:stream\r?\n(.*?)endstream\s*)?endobj"
    for match in re.finditer(pattern, data, re.S):
        header, body = match.group(2), match.group(3)
        out[int(match.group(1))] = (header, None if body is None else _decoded(header, body))
    return out


def pdf_streams(data: bytes) -> list[bytes]:
    """The decoded content stream of each page of a reportlab PDF, in page order (not the
    streams of an embedded font)."""
    objects = pdf_objects(data)
    kids = next(
        re.search(rb"/Kids \[([^\]]*)\]", header)
        for header, _ in objects.values()
        if b"/Type /Pages" in header
    )
    assert kids is not None, "no page tree"
    streams = []
    for page in re.findall(rb"(\d+) 0 R", kids.group(1)):
        contents = re.search(rb"/Contents (\d+) 0 R", objects[int(page)][0])
        assert contents is not None
        stream = objects[int(contents.group(1))][1]
        assert stream is not None
        streams.append(stream)
    return streams


def font_names(data: bytes) -> dict[str, str]:
    """The fonts a PDF's pages name ("F2", "F4+0") and the font each is: "Helvetica-Bold",
    or "DejaVuSans-Bold" for an embedded subset of it (its tag, "AAAAAA+", left off)."""
    objects = pdf_objects(data)
    out = {}
    for header, _ in objects.values():
        for name, number in re.findall(rb"/(F[\w+]+) (\d+) 0 R", header):
            font = re.search(rb"/BaseFont /(?:[A-Z]{6}\+)?([\w-]+)", objects[int(number)][0])
            if font is not None:
                out[name.decode()] = font.group(1).decode()
    return out


def to_unicode(data: bytes) -> dict[str, dict[int, str]]:
    """For each font of a PDF's pages that has a ToUnicode map (reportlab's embedded
    TrueType subsets), the character each byte of its strings stands for."""
    objects = pdf_objects(data)
    out: dict[str, dict[int, str]] = {}
    for header, _ in objects.values():
        for name, number in re.findall(rb"/(F[\w+]+) (\d+) 0 R", header):
            cmap = re.search(rb"/ToUnicode (\d+) 0 R", objects[int(number)][0])
            if cmap is None:
                continue
            stream = objects[int(cmap.group(1))][1] or b""
            sections = b" ".join(re.findall(rb"beginbfchar(.*?)endbfchar", stream, re.S))
            pairs = re.findall(rb"<([0-9A-Fa-f]{2})> <([0-9A-Fa-f]{4,})>", sections)
            out[name.decode()] = {
                int(code, 16): bytes.fromhex(text.decode()).decode("utf-16-be")
                for code, text in pairs
            }
    return out


def shown_text(data: bytes) -> list[list[tuple[str, str, float, float, float]]]:
    """For each page, every string drawn at a place of its own: (text, font, x, y, size),
    the font as `font_names` gives it, the text read through the font's map if it has one."""
    fonts, maps = font_names(data), to_unicode(data)
    pages = []
    for stream in pdf_streams(data):
        shown: list[tuple[str, str, float, float, float]] = []
        font, size = "", 0.0
        for m in re.finditer(
            rb"/(F[\w+]+) ([\d.]+) Tf|1 0 0 1 ([\d.-]+) ([\d.-]+) Tm "
            rb"(?:/(F[\w+]+) ([\d.]+) Tf [\d.]+ TL )?\(((?:\\.|[^\\)])*)\) Tj",
            stream,
        ):
            if m.group(1):
                font, size = m.group(1).decode(), float(m.group(2))
                continue
            if m.group(5):  # a TrueType font is set inside the text object
                font, size = m.group(5).decode(), float(m.group(6))
            text = read(unescape(m.group(7)), maps.get(font))
            shown.append((text, fonts.get(font, font), float(m.group(3)), float(m.group(4)), size))
        pages.append(shown)
    return pages


def read(raw: bytes, chars: dict[int, str] | None) -> str:
    """A string's bytes as text: through its font's ToUnicode map, or as Windows-1252 (the
    standard fonts' WinAnsiEncoding)."""
    if chars is None:
        return raw.decode("cp1252", "replace")
    return "".join(chars.get(byte, "?") for byte in raw)


def unescape(raw: bytes) -> bytes:
    def one(m: re.Match[bytes]) -> bytes:
        code = m.group(1)
        if code[:1].isdigit():
            return bytes([int(code, 8)])
        return {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(code, code)

    return re.sub(rb"\\([0-7]{1,3}|.)", one, raw)


def pdf_text(data: bytes) -> str:
    """All text shown on the pages, pieces joined by spaces and whitespace collapsed; a string
    in an embedded TrueType font is read through its ToUnicode map."""
    maps = to_unicode(data)
    pieces: list[str] = []
    for stream in pdf_streams(data):
        font = ""
        for m in re.finditer(rb"/(F[\w+]+) [\d.]+ Tf|\(((?:\\.|[^\\)])*)\)\s*Tj", stream):
            if m.group(1):
                font = m.group(1).decode()
                continue
            pieces.append(read(unescape(m.group(2)), maps.get(font)))
    return re.sub(r"\s+", " ", " ".join(pieces))
