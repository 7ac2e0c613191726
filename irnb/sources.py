"""Where the bytes come from and go to: paths, folders, tar archives, compression, and the
operating system's errors.

A source is a path to a plain, gzip-, bzip2- or xz-compressed file (recognised by its magic
bytes, whatever its name), a directory of run files (hidden files and folders left out), or
a ``.tar``/``.tar.gz``/``.tar.xz``/``.tar.bz2`` archive (every regular member is a run).
Files are only read, never modified. A path that cannot be read — missing, permission
denied, a symlink loop, a directory where a file is expected, a device or pipe (never
read: it could block or never end) — is a :class:`FileReadError` naming the path and the
cause in the operating system's words; a broken link or special file inside a runs folder
is one too, not skipped. A path written to that ends in ``.gz`` is gzip-compressed.

A plain file of at least :data:`MAP_BYTES` is mapped into memory rather than read
(:func:`read_text`): its text is then the operating system's cached pages of the file, not a
copy in fresh memory. As with every program that maps files, a file that another program
truncates while irnb parses it stops the process (the operating system's SIGBUS).

:mod:`irnb.io` reads through here (and parses what it gets with :mod:`irnb.parsing`),
:mod:`irnb.writing` writes through here. Only the standard library is imported, so that
the lean reader of ``irnb trec_eval`` can share :func:`os_reason`.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import lzma
import mmap
import os
import stat
import tarfile
import zlib
from pathlib import Path
from collections.abc import Iterator

__all__ = ["FileReadError", "os_reason", "file_kind", "read_bytes", "read_text", "decompress", "is_archive",
           "run_files", "open_for_writing", "ARCHIVE_SUFFIXES", "MAP_BYTES"]

_CORRUPT = (EOFError, OSError, zlib.error, lzma.LZMAError, tarfile.TarError)

ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2")


# Plain files at least this large are mapped, not read (see the module's docstring): copying a
# few MiB into fresh memory costs a sizeable part of what parsing them does. A mapping holds a file
# descriptor until it is dropped, so smaller files, which irnb.io reads many at a time (joined
# into one text, a copy anyway), are read.
MAP_BYTES = 1 << 20


# gzip, xz and bzip2 data, each told by its first bytes (whatever the file's name)
_COMPRESSIONS = (("gzip", lambda head: head[:2] == b"\x1f\x8b", gzip.decompress),
                 ("xz", lambda head: head[:6] == b"\xfd7zXZ\x00", lzma.decompress),
                 ("bzip2", lambda head: head[:3] == b"BZh" and head[4:10] == b"\x31\x41\x59\x26\x53\x59",
                  bz2.decompress))


def decompress(data: bytes, label: str = "input") -> bytes:
    """gzip, xz or bzip2 data (recognised by their magic bytes) decompressed; other data as is.
    Truncated or corrupt data raises ValueError naming ``label``."""
    head = data[:10]
    for kind, magic, unpack in _COMPRESSIONS:
        if magic(head):
            try:
                return unpack(data)
            except _CORRUPT as err:
                raise ValueError(f"{label}: corrupt or truncated {kind} data: {err}") from None
    return data


class FileReadError(ValueError):
    """A file that cannot be read: missing, permission denied, a symlink loop, a directory
    where a file is expected, a device or pipe. A ``ValueError`` like every input error;
    ``path`` is the file and ``reason`` the cause in the operating system's words
    (``strerror`` and the errno name, e.g. ``Permission denied (EACCES)``, ``Too many levels
    of symbolic links (ELOOP)``) or the kind of special file.

    >>> from irnb import read_qrels
    >>> try:
    ...     read_qrels("no/such/qrels.txt")
    ... except FileReadError as err:
    ...     print(err.reason)
    No such file or directory (ENOENT)
    """

    def __init__(self, path, reason: str, what: str = "file"):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{path}: cannot read {what}: {reason}")


def os_reason(err: OSError) -> str:
    """The operating system's own words for an OSError, with the errno name."""
    name = errno.errorcode.get(err.errno or 0)
    text = err.strerror or str(err)
    return f"{text} ({name})" if name else text


_NOT_REGULAR = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def file_kind(path: Path, what: str) -> str:
    """``"dir"`` or ``"file"`` (a regular file) for an existing path that can be statted
    (symlinks followed); every other case is a :class:`FileReadError` naming the path and
    the cause: the OS's own words, or which kind of special file it is (reading a device
    or pipe could block or never end)."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise FileReadError(path, os_reason(err), what) from None
    if stat.S_ISDIR(info.st_mode):
        return "dir"
    if stat.S_ISREG(info.st_mode):
        return "file"
    kind = next((name for test, name in _NOT_REGULAR if test(info.st_mode)), "an unknown kind of file")
    raise FileReadError(path, f"not a regular file ({kind})", what)


def read_bytes(path: Path, what: str = "file") -> bytes:
    """The bytes of one file, decompressed (see :func:`decompress`); ``what`` names the file
    in a :class:`FileReadError`."""
    return _read(path, what, mapping=False)


def read_text(path: Path, what: str = "file") -> bytes | mmap.mmap:
    """The text of one file: a plain (uncompressed) file of at least :data:`MAP_BYTES` mapped
    read-only (an ``mmap.mmap``: ``find``, ``rfind``, slices, ``len`` and the buffer protocol,
    which is all a parse of it uses), any other as :func:`read_bytes` gives it."""
    return _read(path, what, mapping=True)


def _read(path: Path, what: str, *, mapping: bool) -> bytes | mmap.mmap:
    try:
        with open(path, "rb") as handle:
            mapped = _mapped(handle) if mapping else None
            if mapped is not None:
                return mapped
            data = handle.read()
    except OSError as err:
        raise FileReadError(path, os_reason(err), what) from None
    return decompress(data, str(path))


def _mapped(handle) -> mmap.mmap | None:
    """An open file mapped read-only when it is plain text of at least :data:`MAP_BYTES`,
    else None (a smaller or compressed file, or a file system that cannot map)."""
    if os.fstat(handle.fileno()).st_size < MAP_BYTES:
        return None
    try:
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    head = mapped[:10]
    if any(magic(head) for _, magic, _ in _COMPRESSIONS):
        mapped.close()
        return None
    if hasattr(mapped, "madvise") and hasattr(mmap, "MADV_WILLNEED"):
        # the whole file will be read: a file not in the page cache is read ahead in large
        # requests, as one read() would, not a page fault at a time
        mapped.madvise(mmap.MADV_WILLNEED)
    return mapped


def is_archive(path: Path) -> bool:
    """Whether ``path`` is a tar archive of runs (by its name; a regular file)."""
    return path.name.lower().endswith(ARCHIVE_SUFFIXES) and file_kind(path, "run archive") == "file"


def _walk_files(path: Path) -> list[Path]:
    """Every non-hidden regular file under a directory (symlinks to files followed, to
    folders not); an unreadable folder or entry (a broken link, a loop, a device) is a
    :class:`FileReadError`, never silently skipped."""
    def fail(err: OSError):
        raise FileReadError(err.filename or path, os_reason(err), "runs folder")

    files = []
    for folder, subfolders, names in os.walk(path, onerror=fail):
        here = Path(folder)
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        for name in names:
            file = here / name
            if _hidden(file.relative_to(path).as_posix()):
                continue
            if file_kind(file, "run file") == "file":
                files.append(file)
    return sorted(files)


def _hidden(relative: str) -> bool:
    """A hidden file, or a file inside a hidden folder (``.ipynb_checkpoints/``, ``.git/``)."""
    parts = [p for p in relative.split("/") if p not in ("", ".")]
    return any(part.startswith(".") for part in parts)


def run_files(path: Path) -> Iterator[tuple[str, str, bytes | mmap.mmap]]:
    """Yield (relative name, label for errors, text) for every run file under ``path``: a
    file, a directory's files, or an archive's members (a text as :func:`read_text` gives it).

    Archives are read as a stream, member by member in archive order (a compressed tar
    cannot seek backwards cheaply); callers order the results by name."""
    kind = file_kind(path, "runs")
    if kind == "dir":
        files = _walk_files(path)
        if not files:
            raise ValueError(f"{path}: directory holds no run files")
        for file in files:
            yield file.relative_to(path).as_posix(), str(file), read_text(file, "run file")
    elif is_archive(path):
        found = False
        try:
            handle = open(path, "rb")
        except OSError as err:
            raise FileReadError(path, os_reason(err), "run archive") from None
        try:
            with handle, tarfile.open(fileobj=handle, mode="r|*") as archive:
                for member in archive:
                    if not member.isfile() or _hidden(member.name):
                        continue
                    handle = archive.extractfile(member)
                    name = member.name[2:] if member.name.startswith("./") else member.name
                    data = decompress(handle.read(), f"{path}::{name}") if handle is not None else b""
                    found = True
                    yield name, f"{path}::{name}", data
        except _CORRUPT as err:
            raise ValueError(f"{path}: corrupt or truncated archive: {err}") from None
        if not found:
            raise ValueError(f"{path}: archive holds no run files")
    else:
        yield path.name, str(path), read_text(path, "run file")


def open_for_writing(path: str | os.PathLike):
    """A binary file opened for writing; gzip-compressed when the path ends in ``.gz``."""
    if str(path).lower().endswith(".gz"):
        return gzip.open(path, "wb")
    return open(path, "wb")
