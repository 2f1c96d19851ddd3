"""`rt.io.gfile`: TensorFlow's file API over the local file system (Python's `os`, `shutil`,
`glob`), raising TensorFlow's errors (`NotFoundError`, `AlreadyExistsError`, ...)."""
import glob as globlib
import os
import shutil
from dataclasses import dataclass

from runtime.core import errors


def _path(path):
    path = path.decode('utf-8') if isinstance(path, bytes) else os.fspath(path)
    return path[len('file://'):] if path.startswith('file://') else path


def _not_found(path):
    return errors.NotFoundError(None, None, f'{path}; No such file or directory')


class GFile:
    """A file: `read`, `write`, `readline`, `readlines`, iteration, `seek`, `tell`, `size`,
    `flush`, `close`, and `with`. Text in modes without 'b', bytes with it; opened on first
    use, as TensorFlow's."""

    def __init__(self, name, mode='r'):
        if mode not in ('r', 'rb', 'w', 'wb', 'a', 'ab', 'r+', 'rb+', 'w+', 'wb+', 'a+', 'ab+'):
            raise errors.InvalidArgumentError(None, None, f"mode is not 'r' or 'w' or 'a': "
                                              f'{mode}')
        self.name, self.mode = _path(name), mode
        self._file = None

    def _handle(self):
        if self._file is None:
            if 'r' in self.mode and not os.path.exists(self.name):
                raise _not_found(self.name)
            try:
                self._file = open(self.name, self.mode)
            except FileNotFoundError:
                raise _not_found(self.name) from None
            except IsADirectoryError:
                raise errors.FailedPreconditionError(
                    None, None, f'{self.name}; Is a directory') from None
        return self._file

    def read(self, n=-1):
        return self._handle().read(n)

    def readline(self):
        return self._handle().readline()

    def readlines(self):
        return self._handle().readlines()

    def write(self, file_content):
        handle = self._handle()
        if 'b' not in self.mode and isinstance(file_content, bytes):
            file_content = file_content.decode('utf-8')
        elif 'b' in self.mode and isinstance(file_content, str):
            file_content = file_content.encode('utf-8')
        handle.write(file_content)

    def seek(self, offset=None, whence=0, position=None):
        if position is not None:
            offset = position
        self._handle().seek(offset, whence)

    def tell(self):
        return self._handle().tell()

    def size(self):
        return os.path.getsize(self.name)

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def seekable(self):
        return True

    def __iter__(self):
        return iter(self._handle())

    def __next__(self):
        return next(self._handle())

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


@dataclass(frozen=True)
class FileStatistics:
    """What `stat` gives: the size in bytes, the modification time in nanoseconds, and whether
    the path is a directory."""
    length: int
    mtime_nsec: int
    is_directory: bool


def exists(path):
    """Whether `path` exists."""
    return os.path.exists(_path(path))


def isdir(path):
    """Whether `path` is a directory."""
    return os.path.isdir(_path(path))


def listdir(path):
    """The names in directory `path` (NotFoundError if it is none)."""
    path = _path(path)
    if not os.path.isdir(path):
        raise _not_found(path)
    return sorted(os.listdir(path))


def glob(pattern):
    """The paths matching `pattern` (a string or a list of them)."""
    patterns = [pattern] if isinstance(pattern, (str, bytes)) else list(pattern)
    return sorted({match for p in patterns for match in globlib.glob(_path(p))})


def join(path, *paths):
    """The paths joined with '/'."""
    return os.path.join(_path(path), *[_path(p) for p in paths])


def makedirs(path):
    """Creates `path` and any missing parents (nothing if it exists)."""
    os.makedirs(_path(path), exist_ok=True)


def mkdir(path):
    """Creates the directory `path` (AlreadyExistsError if it exists)."""
    path = _path(path)
    try:
        os.mkdir(path)
    except FileExistsError:
        raise errors.AlreadyExistsError(None, None, f'{path}; File exists') from None
    except FileNotFoundError:
        raise _not_found(path) from None


def remove(path):
    """Deletes the file `path`."""
    path = _path(path)
    try:
        os.remove(path)
    except FileNotFoundError:
        raise _not_found(path) from None


def rmtree(path):
    """Deletes the directory `path` and everything in it."""
    path = _path(path)
    if not os.path.exists(path):
        raise _not_found(path)
    shutil.rmtree(path)


def _transfer(action, src, dst, overwrite):
    src, dst = _path(src), _path(dst)
    if not os.path.exists(src):
        raise _not_found(src)
    if os.path.exists(dst) and not overwrite:
        raise errors.AlreadyExistsError(None, None, f'file already exists: {dst}')
    action(src, dst)


def copy(src, dst, overwrite=False):
    """Copies the file `src` to `dst`."""
    _transfer(shutil.copyfile, src, dst, overwrite)


def rename(src, dst, overwrite=False):
    """Moves `src` to `dst`."""
    _transfer(os.replace, src, dst, overwrite)


def stat(path):
    """The `FileStatistics` of `path`."""
    path = _path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise _not_found(path) from None
    return FileStatistics(info.st_size, info.st_mtime_ns, os.path.isdir(path))


def walk(top, topdown=True, onerror=None):
    """(directory, subdirectories, files) for each directory under `top`, as `os.walk`."""
    top = _path(top)
    if not os.path.isdir(top):
        return
    for directory, subdirectories, files in os.walk(top, topdown=topdown, onerror=onerror):
        subdirectories.sort()
        yield directory, subdirectories, sorted(files)


def get_registered_schemes():
    """The URL schemes paths may start with: the local file system's."""
    return ['', 'file']


__all__ = ['GFile', 'copy', 'exists', 'get_registered_schemes', 'glob', 'isdir', 'join',
           'listdir', 'makedirs', 'mkdir', 'remove', 'rename', 'rmtree', 'stat', 'walk']
