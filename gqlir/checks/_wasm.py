"""The ZetaSQL local service as a WebAssembly instance: loading, the compiled-module cache, and
one RPC call.

The ``zetasql`` package ships Google's ZetaSQL front end built for WASI; its own client fails on
some machines (its shared-memory wrapper has no ``write``), so gqlir loads the module with
``wasmtime`` and calls the exported ``ZetaSqlLocalService_<Method>`` functions itself
(docs/engines.md, "ZetaSQL as the judge of Spanner output"). Compiling the module takes tens of
seconds, so the compiled form is kept in gqlir's cache directory, keyed by the module's hash and
the wasmtime version, and reused by every later process.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import hashlib
import os
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

from ..errors import GqlirError
from ..optional import require
from ..resources import cache_dir

_LENGTH_BYTES = 4  # the response length is written as a little-endian uint32


class CheckerError(GqlirError):
    """The ZetaSQL checker cannot run (module broken, service crashed)."""

    code = "ZETASQL_CHECKER"


class ServiceError(Exception):
    """An RPC answered with an error status: ``code`` and ``message`` as the service wrote them."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _imports() -> tuple[Any, Any]:
    purpose = "the ZetaSQL checker"
    wasi = require("zetasql.wasi", extra="zetasql", purpose=purpose)
    return require("wasmtime", extra="zetasql", purpose=purpose), wasi


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:24]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One process compiles at a time (test workers start together); the others then read the
    cache the first one wrote."""
    try:
        import fcntl
    except ImportError:  # no POSIX locks: each process may compile once
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def cache_path(wasm: Path) -> Path:
    """Where the compiled module for ``wasm`` and this wasmtime lives."""
    return cache_dir() / f"zetasql-{_file_hash(wasm)}-wasmtime{version('wasmtime')}.cwasm"


def load_module(engine: Any, wasm: Path) -> Any:
    """The compiled module: from the cache, or compiled now and cached (a stale or unreadable
    cache file is compiled over)."""
    wasmtime, _ = _imports()
    cached = cache_path(wasm)
    with _locked(cached.with_suffix(".lock")):
        if cached.exists():
            with contextlib.suppress(wasmtime.WasmtimeError):
                return wasmtime.Module.deserialize_file(engine, str(cached))
        module = wasmtime.Module.from_file(engine, str(wasm))
        with contextlib.suppress(OSError):  # a read-only home: compile again next time
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(module.serialize())
            os.replace(tmp, cached)
        return module


class Service:
    """One instance of the local service; calls are serialized protobuf messages."""

    def __init__(self) -> None:
        wasmtime, wasi_pkg = _imports()
        self._wasmtime = wasmtime
        wasm = wasi_pkg.get_wasm_path()
        try:
            config = wasmtime.Config()
            config.shared_memory = True  # the module's memory is a shared (threads) memory
            self._engine = wasmtime.Engine(config)
            self._module = load_module(self._engine, wasm)
        except wasmtime.WasmtimeError as exc:
            raise CheckerError(f"cannot load the ZetaSQL module {wasm}: {exc}") from None
        self._instantiate()
        atexit.register(self.close)

    def close(self) -> None:
        """Free the wasmtime objects now: left to the garbage collector at interpreter exit,
        their finalizers run after wasmtime's own module is torn down and print tracebacks."""
        for resource in (self._memory, self._store, self._module, self._engine):
            resource.close()

    def _instantiate(self) -> None:
        wasmtime = self._wasmtime
        config = wasmtime.WasiConfig()
        zoneinfo = _zoneinfo_dir()
        if zoneinfo is not None:
            config.preopen_dir(zoneinfo, "/usr/share/zoneinfo")
        self._store = wasmtime.Store(self._engine)
        self._store.set_wasi(config)
        linker = wasmtime.Linker(self._engine)
        linker.define_wasi()
        instance = linker.instantiate(self._store, self._module)
        self._exports = instance.exports(self._store)
        if "_initialize" in self._exports:
            self._exports["_initialize"](self._store)
        self._memory = self._exports["memory"]

    def call(self, method: str, request: Any, response_type: type[Any]) -> Any:
        """``ZetaSqlLocalService_<method>(request)``; an error status raises ServiceError, a
        crash of the instance raises CheckerError (and the next call gets a fresh instance)."""
        try:
            data = self._raw_call(f"ZetaSqlLocalService_{method}", request.SerializeToString())
        except self._wasmtime.Trap as exc:
            self._instantiate()
            raise CheckerError(f"the ZetaSQL service crashed in {method}: {exc}") from None
        return response_type.FromString(data)

    def _address(self, pointer: int, size: int) -> int:
        """The host address of ``size`` bytes at ``pointer`` in the instance's shared memory
        (wasmtime's SharedMemory has no read or write)."""
        if pointer + size > self._memory.data_len():
            raise self._wasmtime.Trap(f"address {pointer}+{size} is outside the memory")
        return ctypes.addressof(self._memory.data_ptr().contents) + pointer

    def _read(self, pointer: int, size: int) -> bytes:
        return ctypes.string_at(self._address(pointer, size), size)

    def _raw_call(self, name: str, payload: bytes) -> bytes:
        store, exports = self._store, self._exports
        malloc, free = exports["wasm_malloc"], exports["wasm_free"]
        request = malloc(store, max(len(payload), 1))
        length = malloc(store, _LENGTH_BYTES)
        try:
            ctypes.memmove(self._address(request, len(payload)), payload, len(payload))
            response = exports[name](store, request, len(payload), length)
            if response == 0:
                raise self._last_error()
            size = int.from_bytes(self._read(length, _LENGTH_BYTES), "little")
            data = self._read(response, size)
            free(store, response)
            return data
        finally:
            free(store, request)
            free(store, length)

    def _last_error(self) -> ServiceError:
        """The service's last error, ``Code: N, Message: text``, as a ServiceError."""
        size = self._exports["wasm_get_last_error_size"](self._store)
        pointer = self._exports["wasm_get_last_error"](self._store)
        return _service_error(self._read(pointer, size).decode("utf-8", "replace"))


def _service_error(text: str) -> ServiceError:
    """``Code: N, Message: text`` (absl::Status as the service prints it) as a ServiceError."""
    head, sep, message = text.partition(", Message: ")
    code = head.removeprefix("Code: ")
    if not sep or not code.isdigit():
        return ServiceError(-1, text)
    return ServiceError(int(code), message)


def _zoneinfo_dir() -> str | None:
    """The tzdata package's zone files, which the service reads as /usr/share/zoneinfo."""
    try:
        import tzdata
    except ImportError:
        return None
    path = Path(tzdata.__file__).parent / "zoneinfo"
    return str(path) if path.is_dir() else None
