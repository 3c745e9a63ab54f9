"""Uploaded files kept in the database in chunks (`jobs.models.Upload`), read back as a seekable stream.

Writing and reading hold one chunk in memory at a time, so a rating list of any size costs the same.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable

from .models import CHUNK_SIZE, Upload, UploadChunk


def content_hash(chunks: Iterable[bytes]) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()


def store(name: str, chunks: Iterable[bytes]) -> Upload:
    """Save a file given as byte chunks of any size; call inside the transaction that creates its job."""
    upload = Upload.objects.create(name=name[:255], sha256="")
    digest, size, index, buffer = hashlib.sha256(), 0, 0, bytearray()
    for chunk in chunks:
        digest.update(chunk)
        size += len(chunk)
        buffer += chunk
        while len(buffer) >= CHUNK_SIZE:
            UploadChunk.objects.create(upload=upload, index=index, data=bytes(buffer[:CHUNK_SIZE]))
            del buffer[:CHUNK_SIZE]
            index += 1
    if buffer or index == 0:
        UploadChunk.objects.create(upload=upload, index=index, data=bytes(buffer))
    upload.sha256, upload.size = digest.hexdigest(), size
    upload.save(update_fields=["sha256", "size"])
    return upload


class UploadReader(io.RawIOBase):
    """A read-only, seekable stream over an Upload's chunks; `fraction` is how far reading has come."""

    def __init__(self, upload: Upload) -> None:
        super().__init__()
        self.upload_id, self.size = upload.pk, upload.size
        self.position = 0
        self.furthest = 0
        self._index, self._chunk = -1, b""

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = max(0, base + offset)
        return self.position

    def readinto(self, target) -> int:
        if self.position >= self.size:
            return 0
        index, offset = divmod(self.position, CHUNK_SIZE)
        if index != self._index:
            data = UploadChunk.objects.filter(upload_id=self.upload_id, index=index).values_list("data", flat=True)
            self._index, self._chunk = index, bytes(data.get())
        piece = self._chunk[offset : offset + len(target)]
        target[: len(piece)] = piece
        self.position += len(piece)
        self.furthest = max(self.furthest, self.position)
        return len(piece)

    @property
    def fraction(self) -> float:
        return self.furthest / self.size if self.size else 1.0


def open_upload(upload: Upload) -> io.BufferedReader:
    """The upload as a buffered binary stream; its `raw` is the UploadReader (for `fraction`)."""
    return io.BufferedReader(UploadReader(upload), buffer_size=1 << 16)
