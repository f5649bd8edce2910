"""Verified entries: a pickle behind a checksum of its payload and its key, the format of
every cache entry and stored render (``cache``, ``state``). A corrupt, truncated or
misplaced entry fails its check and is recomputed, never used."""

from __future__ import annotations

import hashlib
import pickle
from typing import Any


def dump_entry(value: Any, key: str = "") -> bytes:
    """Pickle ``value`` behind a SHA-256 of the payload *and* the key it is stored under, so
    an entry that ends up under another key (a copied row, a renamed file) fails too."""
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _checksum(key, payload) + payload


def load_entry(data: bytes, key: str = "") -> Any:
    """Unpickle a verified payload; raises ValueError when the checksum does not match."""
    checksum, payload = data[:32], data[32:]
    if len(data) < 32 or _checksum(key, payload) != checksum:
        raise ValueError("checksum mismatch")
    return pickle.loads(payload)  # our own files, verified above


def _checksum(key: str, payload: bytes) -> bytes:
    digest = hashlib.sha256(key.encode())
    digest.update(b"\0")
    digest.update(payload)
    return digest.digest()
