"""Converted code kept on disk, as Python keeps a module's bytecode in `__pycache__`.

Converting a function takes milliseconds (a small one 3-5 ms, the first in a process 10-20 ms
while the templates are parsed), which a program pays again in every process: for a model's
`ag.function`, a good part of its first call from a warm jit cache; for converted
code that defines classes in tests, most of their time. Here the compiled factory of
each conversion (`loader.compile_factory`'s code object) is written once, with `marshal`, under
a key of everything the conversion reads:

- the function's source lines, file, first line, name, qualified name, free variables and the
  class whose private names it mangles (what `parser.parse_entity` gives);
- the builtins its module shadows (`call_trees.shadowing`: the only use of the module's names);
- the compiler itself: the size and time of each file of its packages and their
  subpackages (pyct, analysis, converters and converters/speed, compiler), and the Python
  version (marshal's format and the bytecode).

A later process that converts the same function loads the code object (~50 µs) and registers
its code objects as converted code (`loader.register_factory`), as compiling them does.
`to_code` still converts (it needs the tree). Only conversions that succeed are written; a
failure is raised again by converting.

The directory is `$AUTOGRAPH_CACHE`, else `~/.cache/autograph/conversions`; an empty
`AUTOGRAPH_CACHE` turns the cache off, and an unwritable directory means no cache. Entries are
written to a temporary file and renamed, so a reader never sees half an entry; one that does
not load (another Python, a damaged file) is converted again and written over.
"""
import hashlib
import importlib.util
import marshal
import os
import sys
import tempfile
import types

_PACKAGES = ('pyct', 'analysis', 'converters', 'compiler')
_fingerprint = []     # computed on first use: the compiler's files do not change in a process


_usable = {}         # folder -> whether it was made (or found) writable, once a process


def directory():
    """The cache folder, or None for no on-disk cache. The variable is read at each call (a
    test may change it); whether a folder can be written is found once per folder."""
    path = os.environ.get('AUTOGRAPH_CACHE')
    if path is None:
        path = os.path.join(os.path.expanduser('~'), '.cache', 'autograph', 'conversions')
    if not path:
        return None
    usable = _usable.get(path)
    if usable is None:
        try:
            os.makedirs(path, exist_ok=True)
            usable = os.access(path, os.W_OK)
        except OSError:
            usable = False
        _usable[path] = usable
    return path if usable else None


def compiler_files():
    """The compiler's source files, relative to the `autograph` folder: those of its packages
    and of their subpackages (converters/speed), in a fixed order."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = []
    for package in _PACKAGES:
        for folder, subfolders, names in os.walk(os.path.join(root, package)):
            subfolders[:] = sorted(d for d in subfolders if d != '__pycache__')
            files += [os.path.relpath(os.path.join(folder, name), root)
                      for name in sorted(names) if name.endswith('.py')]
    return files


def _compiler_fingerprint():
    if not _fingerprint:
        digest = hashlib.sha256(importlib.util.MAGIC_NUMBER + sys.version.encode())
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for relative in compiler_files():
            stat = os.stat(os.path.join(root, relative))
            digest.update(f'{relative}:{stat.st_size}:{stat.st_mtime_ns};'.encode())
        _fingerprint.append(digest.digest())
    return _fingerprint[0]


def key(parts):
    """The entry name for a conversion described by `parts` (strings and tuples of them)."""
    digest = hashlib.sha256(_compiler_fingerprint())
    digest.update(repr(parts).encode('utf-8', 'surrogatepass'))
    return digest.hexdigest()[:32]


def load(folder, name):
    """The code object stored as `name`, or None."""
    try:
        with open(os.path.join(folder, name), 'rb') as f:
            code = marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, types.CodeType) else None


def store(folder, name, code):
    """Writes `code` as `name`; a failure to write leaves the cache as it was."""
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, suffix='.tmp')
    except OSError:
        return
    try:
        with os.fdopen(handle, 'wb') as f:
            marshal.dump(code, f)
        os.replace(temporary, os.path.join(folder, name))
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
