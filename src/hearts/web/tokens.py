"""Owner tokens: the browser cookie is a value this server made and signed.

A token is `v1.<random>.<mac>`: 24 random bytes and an HMAC-SHA256 of them under a secret
kept in the data directory (`cookie-secret`, 0600, made on first start). A cookie the server
did not make (planted by a sibling site, guessed, or from before tokens were signed) fails
the check and is treated as no cookie at all: it owns nothing, and the next new game
replaces it with a fresh token.

>>> keys = Tokens(b"k" * 32)
>>> token = keys.issue()
>>> keys.is_valid(token), keys.is_valid("planted-by-a-sibling-site")
(True, False)
>>> keys.is_valid(token[:-1] + ("A" if token[-1] != "A" else "B"))
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

PREFIX = "v1"
SECRET_FILE = "cookie-secret"
#: The cookie's name over plain HTTP (loopback) and over HTTPS, where the `__Host-` prefix
#: makes the browser refuse it unless Secure, for this host only and for the whole site.
COOKIE = "hearts_browser"
SECURE_COOKIE = "__Host-hearts_browser"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Tokens:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    @classmethod
    def in_directory(cls, directory: Path) -> Tokens:
        """The secret in `directory`, made (0600) when missing."""
        path = directory / SECRET_FILE
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            fd = -1
        if fd < 0:
            secret = path.read_bytes()
            if len(secret) < 32:
                raise ValueError(f"{path} is too short to be a secret; delete it for a new one.")
            return cls(secret)
        secret = secrets.token_bytes(32)
        with os.fdopen(fd, "wb") as file:
            file.write(secret)
        return cls(secret)

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode(), hashlib.sha256).digest())

    def fingerprint(self) -> str:
        """A mark of the secret that does not give it away: the same secret, the same mark."""
        return self._mac("hearts: the cookie secret's fingerprint")

    def address_key(self, address: str) -> str:
        """What the store keeps for a client address (the quotas count new games by it): a
        keyed hash, the same in every process sharing the secret, which a copy of the
        database alone cannot turn back into the address."""
        return self._mac(f"hearts: an address: {address}")

    def issue(self) -> str:
        body = f"{PREFIX}.{_b64(secrets.token_bytes(24))}"
        return f"{body}.{self._mac(body)}"

    def is_valid(self, token: str | None) -> bool:
        if not token or len(token) > 128:
            return False
        body, _, mac = token.rpartition(".")
        if not body.startswith(PREFIX + "."):
            return False
        return hmac.compare_digest(mac, self._mac(body))
