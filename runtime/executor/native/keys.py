"""Keys of programs for the on-disk cache's index: a later process finds a graph's native code by
its key, without running the optimization passes and the lowering again.

A key is a digest of everything the passes and the lowering read from a Program before they
are run: each node's op, input positions, control inputs, attrs (array values in full) and
output types, its params and outputs, the Programs of its control flow (by structure, not by
their names, which count functions per process), and what a variable's storage shows the
lowering (dtype and shape). Node names and user lines are not in it: the generated source
holds neither. The passes and the lowering are code too: the key also holds the pipeline's
passes by name and a fingerprint of the source files that make and read Programs (the
runtime's core, ops and executor packages: their paths, sizes and modification times), so an
edited or upgraded runtime finds none of its old entries.

A program holding a value the digest does not know how to read (an attr of an unknown type, a
payload other than a variable's storage) has no key: its plan lowers at every first call.
"""
import hashlib
import os
from typing import Any, Callable, Iterable

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.executor.recursion import room
from runtime.ops.state import VariableStorage


class Unkeyable(Exception):
    """A program holds a value that has no digest here."""


def program_key(program: Any, pipeline: Iterable[Callable[..., Any]]) -> str | None:
    """The index key of the unoptimized `program` run through `pipeline`, or None."""
    digest = hashlib.sha256(code_fingerprint())
    digest.update(repr([f'{p.__module__}.{p.__qualname__}' for p in pipeline]).encode())
    try:
        with room():  # the digest recurses once per nesting level of control flow
            _program(digest.update, program)
    except (Unkeyable, KeyError):  # KeyError: a node reads one outside its program
        return None
    return digest.hexdigest()[:32]


_fingerprint: list[bytes] = []  # computed once a process


def code_fingerprint() -> bytes:
    """A digest of the source files of the runtime's core, ops and executor packages by path,
    size and modification time (stat alone: reading them would cost a first call
    milliseconds)."""
    if not _fingerprint:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        digest = hashlib.sha256()
        for folder, subfolders, files in (entry for package in ('core', 'ops', 'executor')
                                          for entry in os.walk(os.path.join(root, package))):
            subfolders[:] = sorted(d for d in subfolders if d != '__pycache__')
            for name in sorted(files):
                if name.endswith('.py'):
                    path = os.path.join(folder, name)
                    stat = os.stat(path)
                    digest.update(f'{os.path.relpath(path, root)}:{stat.st_size}:'
                                  f'{stat.st_mtime_ns}\n'.encode())
        _fingerprint.append(digest.digest())
    return _fingerprint[0]


def _program(write: Callable[[bytes], Any], program: Any) -> None:
    positions = {node: k for k, node in enumerate(program.nodes)}
    write(b'program %d\n' % len(program.nodes))
    for node in program.nodes:
        write(repr((node.opdef.name,
                    [(positions[value.node], value.index) for value in node.inputs],
                    [positions[other] for other in node.control],
                    [(value.dtype.name, value.shape.dims) for value in node.outputs])
                   ).encode())
        skipped = node.opdef.function_attrs  # their functions are the branches, below
        for name in sorted(node.attrs):
            if name not in skipped:
                write(b'\nattr ' + name.encode() + b'=')
                _value(write, node.attrs[name])
        _payload(write, node.payload)
        for branch in node.branches:
            _program(write, branch)
        write(b'\n')
    write(repr(([positions[node] for node in program.params],
                [(positions[value.node], value.index) for value in program.outputs])).encode())


def _payload(write: Callable[[bytes], Any], payload: Any) -> None:
    if payload is None:
        write(b' -')
    elif isinstance(payload, VariableStorage):
        write(repr(('storage', payload.dtype.name, payload.shape.dims)).encode())
    else:  # a generator, a table, a summary writer...: what the lowering makes of it is its own
        raise Unkeyable(type(payload).__name__)


def _value(write: Callable[[bytes], Any], value: Any) -> None:
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        write(repr((type(value).__name__, value)).encode())
    elif isinstance(value, dtypes.DType):
        write(b'dtype ' + value.name.encode())
    elif isinstance(value, TensorShape):
        write(repr(('shape', value.dims)).encode())
    elif isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
        if array.dtype.hasobject:
            raise Unkeyable('an object array')
        write(repr(('array', type(value).__name__, array.dtype.str, array.shape)).encode())
        write(np.ascontiguousarray(array).tobytes())
    elif isinstance(value, (list, tuple)):
        write(b'%s %d[' % (type(value).__name__.encode(), len(value)))
        for item in value:
            _value(write, item)
            write(b',')
        write(b']')
    elif isinstance(value, dict):
        write(b'dict %d{' % len(value))
        for key in sorted(value, key=repr):
            _value(write, key)
            write(b':')
            _value(write, value[key])
            write(b',')
        write(b'}')
    else:
        raise Unkeyable(type(value).__name__)
