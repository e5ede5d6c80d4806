"""The text of the sheets' PDFs, read without a PDF library: reportlab's streams decoded."""

from __future__ import annotations

import base64
import re
import zlib


def pdf_streams(data: bytes) -> list[bytes]:
    """Decoded content streams of a reportlab PDF (ASCII85 and Flate filters)."""
    out = []
    for match in re.finditer(rb"<<(.*?)>>\s*stream\r?\n(.*?)endstream", data, re.S):
        header, body = match.group(1), match.group(2).strip()
        if b"ASCII85Decode" in header:
            body = base64.a85decode(body.removesuffix(b"~>"))
        if b"FlateDecode" in header:
            body = zlib.decompress(body)
        out.append(body)
    return out


def unescape(raw: bytes) -> bytes:
    def one(m: re.Match[bytes]) -> bytes:
        code = m.group(1)
        if code[:1].isdigit():
            return bytes([int(code, 8)])
        return {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(code, code)

    return re.sub(rb"\\([0-7]{1,3}|.)", one, raw)


def pdf_text(data: bytes) -> str:
    """All text shown on the page, pieces joined by spaces and whitespace collapsed."""
    pieces: list[str] = []
    for stream in pdf_streams(data):
        for m in re.finditer(rb"\(((?:\\.|[^\\)])*)\)\s*Tj", stream):
            pieces.append(unescape(m.group(1)).decode("cp1252", "replace"))
    return re.sub(r"\s+", " ", " ".join(pieces))
