"""`rt.train.Checkpoint`, `CheckpointManager` and `latest_checkpoint`, in TensorFlow's format.

A checkpoint is `PREFIX.index` + `PREFIX.data-00000-of-00001` (a TensorBundle) holding every
variable reachable from the Checkpoint's objects under TensorFlow's keys and the object graph
that names them (object_graph.py), so `tf.train.Checkpoint` restores what is saved here and
the reverse. `save` numbers the prefix (`PREFIX-N`, N from the `save_counter` variable) and
records it in the directory's `checkpoint` file (TensorFlow's CheckpointState, text format),
which `latest_checkpoint` reads; `write` writes exactly `PREFIX` and records nothing.

Restoring matches the checkpoint's objects to the Python objects by local name, checks every
matched value's shape and dtype first and only then assigns them all (a failed restore changes
nothing). Values whose object does not exist yet are restored when it is created (a Module
attribute set later, an optimizer's slot made on its first step), as TensorFlow's deferred
restoration does.
"""
import os
import time
import warnings
import weakref

import numpy as np

from runtime.core import dtypes, errors
from runtime.graph import serialization
from runtime.module import Module, deferred_restores
from runtime.train.object_graph import (
    ObjectGraph,
    is_trackable,
    match_objects,
    read_checkpoint,
    saved_value,
)
from runtime.variables import Variable

STATE_FILE = 'checkpoint'


def _check_trackable(name, value):
    if isinstance(value, (list, tuple)):
        for item in value:
            _check_trackable(name, item)
    elif isinstance(value, dict):
        for item in value.values():
            _check_trackable(name, item)
    elif not is_trackable(value):
        raise ValueError(f'`Checkpoint` was expecting {name} to be a trackable object (an '
                         f'rt.Module, rt.Variable, optimizer or Checkpoint, or a list or dict of '
                         f'them), got {value!r}.')


class Checkpoint:
    """Groups objects to save and restore: `rt.train.Checkpoint(model=m, optimizer=opt)`."""

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, '_objects', {})
        object.__setattr__(self, '_save_counter', None)
        if root is not None:
            kwargs = {'root': root, **kwargs}
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __setattr__(self, name, value):
        if name.startswith('_'):
            object.__setattr__(self, name, value)
            return
        _check_trackable(name, value)
        self._objects[name] = value

    def __getattr__(self, name):
        objects = self.__dict__.get('_objects', {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"'Checkpoint' object has no attribute {name!r}")

    def trackable_children(self):
        children = list(self._objects.items())
        if self._save_counter is not None:
            children.append(('save_counter', self._save_counter))
        return children

    @property
    def save_counter(self):
        """How many times `save` ran (an int64 Variable, made on first use)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), name='save_counter', trainable=False)
        return self._save_counter

    # ---- writing -------------------------------------------------------------------------------

    def write(self, file_prefix):
        """Write the checkpoint at exactly `file_prefix`; returns `file_prefix`."""
        file_prefix = os.fspath(file_prefix)
        serialization.write_bundle(file_prefix, ObjectGraph.of(self).tensors())
        return file_prefix

    def save(self, file_prefix):
        """Count this save, write `file_prefix-N` and record it as the directory's latest
        checkpoint; returns the path written."""
        counter = self.save_counter
        counter.storage.value = np.int64(counter.storage.value + 1)
        path = self.write(f'{os.fspath(file_prefix)}-{int(counter.storage.value)}')
        write_state(os.path.dirname(path), path, [path], [time.time()])
        return path

    # ---- reading -------------------------------------------------------------------------------

    def read(self, save_path):
        """Restore the values saved at `save_path` into these objects (a CheckpointLoadStatus)."""
        return CheckpointLoadStatus(self, os.fspath(save_path))

    def restore(self, save_path):
        """As `read`; `None` (no checkpoint yet, e.g. `latest_checkpoint` of an empty directory)
        restores nothing."""
        if save_path is None:
            return InitializationOnlyStatus()
        return self.read(save_path)

    def __repr__(self):
        return f'<rt.train.Checkpoint {sorted(self._objects)}>'


class InitializationOnlyStatus:
    """What `restore(None)` returns: nothing was restored, and nothing is asserted but that."""

    def assert_consumed(self):
        raise AssertionError('No checkpoint specified (save_path=None); nothing is being '
                             'restored.')

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed

    def expect_partial(self):
        return self


class CheckpointLoadStatus:
    """The result of a restore: which values found an object, asserted on demand."""

    def __init__(self, checkpoint, save_path):
        self.save_path = save_path
        try:
            self.values, self.nodes = read_checkpoint(save_path)
        except OSError:
            raise errors.NotFoundError(
                None, None, f'Error when restoring from checkpoint at {save_path}: no checkpoint '
                f'there ({save_path}.index is missing). Please double-check that the path is '
                f'correct. You may be missing the checkpoint suffix (e.g. the \'-1\' in '
                f'\'path/to/ckpt-1\').') from None
        self.root = checkpoint
        if isinstance(checkpoint, Checkpoint) and self._has_save_counter():
            checkpoint.save_counter  # made now, so that it is restored with the rest
        self.restored = set()  # checkpoint node ids whose value was assigned
        self.matched = set()  # checkpoint node ids matched to a Python object
        self.partial = True  # no warning about unused values unless the restore succeeds
        self.restore(checkpoint, 0)
        self.partial = False

    def _has_save_counter(self):
        return any(c.get('local_name') == 'save_counter' for c in
                   self.nodes[0].get('children', [])) if self.nodes else False

    def restore(self, root, node_id):
        """Assign the values of the checkpoint's subtree at `node_id` to the objects under
        `root`: every value checked first, then all assigned."""
        ours = ObjectGraph.of(root)
        found = match_objects(ours.nodes(), self.nodes, (0, node_id))
        pending = []
        for mine, theirs in found.items():
            self.matched.add(theirs)
            value = ours.objects[mine]
            if not isinstance(value, Variable) or theirs in self.restored:
                continue
            key, saved = saved_value(self.nodes[theirs], self.values)
            if saved is None:
                continue
            pending.append((self._checked(value, key, saved), value, theirs))
        for saved, variable, theirs in pending:
            variable.storage.value = saved
            self.restored.add(theirs)
        for mine, theirs in found.items():
            value = ours.objects[mine]
            if not isinstance(value, Variable) and self._waiting(theirs):
                self._defer(value, theirs)

    def _checked(self, variable, key, saved):
        if variable.dtype is dtypes.string:
            ok = saved.dtype == object
        else:
            ok = saved.dtype == variable.dtype.np_dtype
        if not ok:
            raise errors.InvalidArgumentError(
                None, None, f'{self.save_path}: the variable {variable.storage.name!r} is '
                f'{variable.dtype.name} but the checkpoint holds {saved.dtype} for it ({key}). '
                f'Create the variable with dtype {saved.dtype} to restore it.')
        if list(saved.shape) != variable.shape.as_list():
            raise ValueError(f'Received incompatible tensor with shape {tuple(saved.shape)} when '
                             f'attempting to restore variable with shape '
                             f'{tuple(variable.shape.as_list())} and name {variable.name} (from '
                             f'{key} in {self.save_path}). Create the variable with the '
                             f'checkpoint\'s shape to restore it.')
        return np.array(saved, dtype=object if variable.dtype is dtypes.string
                        else variable.dtype.np_dtype)

    def _waiting(self, node_id):
        """Whether the checkpoint's subtree at `node_id` has values not restored yet."""
        stack, seen = [node_id], set()
        while stack:
            node = stack.pop()
            if node in seen or node >= len(self.nodes):
                continue
            seen.add(node)
            if node not in self.restored and saved_value(self.nodes[node], self.values)[1] \
                    is not None:
                return True
            stack.extend(c.get('node_id', 0) for c in self.nodes[node].get('children', []))
        return False

    def _defer(self, obj, node_id):
        """Restore into `obj` the values of its subtree when it gains attributes (a Module's
        variables built on first call, an optimizer's slots)."""
        if not isinstance(obj, Module) and not callable(getattr(obj, 'trackable_children',
                                                                None)):
            return
        target = weakref.ref(obj)  # the status lives as long as values wait for the object

        def restore_new_children():
            obj = target()
            if obj is not None:
                self.restore(obj, node_id)
            if obj is None or not self._waiting(node_id):
                deferred_restores.pop(key, None)

        key = id(obj)
        deferred_restores[key] = restore_new_children
        weakref.finalize(obj, deferred_restores.pop, key, None)

    # ---- assertions ----------------------------------------------------------------------------

    def _unmatched_objects(self):
        ours = ObjectGraph.of(self.root)
        found = match_objects(ours.nodes(), self.nodes)
        return [ours.objects[i] for i in range(len(ours.objects))
                if isinstance(ours.objects[i], Variable) and
                (i not in found or found[i] not in self.restored)]

    def _unused_values(self):
        paths = {}
        queue = [(0, ('(root)',))]
        while queue:
            node, path = queue.pop(0)
            if node in paths or node >= len(self.nodes):
                continue
            paths[node] = path
            queue.extend((c.get('node_id', 0), path + (c.get('local_name', ''),))
                         for c in self.nodes[node].get('children', []))
        return ['.'.join(paths.get(i, (f'node {i}',))) for i, node in enumerate(self.nodes)
                if saved_value(node, self.values)[1] is not None and i not in self.restored]

    def assert_consumed(self):
        """AssertionError unless every value of the checkpoint was restored and every Variable
        reachable from the objects got one."""
        unused = self._unused_values()
        if unused:
            raise AssertionError(f'Unresolved object in checkpoint {unused[0]}: its value was not '
                                 f'restored (no object at that path; {len(unused)} such values: '
                                 f'{unused}).')
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self):
        """AssertionError unless every Variable reachable from the objects got a value."""
        unmatched = self._unmatched_objects()
        if unmatched:
            shown = unmatched[:10]
            raise AssertionError(
                f'Found {len(unmatched)} Python objects that were not bound to checkpointed '
                f'values, likely due to changes in the Python program. Showing {len(shown)} of '
                f'{len(unmatched)} unmatched objects: {shown}')
        return self

    def assert_nontrivial_match(self):
        """AssertionError unless some object besides the root and its save counter matched."""
        if not (self.matched - {0} - self._save_counter_ids()):
            raise AssertionError(f'Nothing except the root object matched a checkpointed value '
                                 f'in {self.save_path}. Typically this means that the '
                                 f'checkpoint does not match the Python program.')
        return self

    def _save_counter_ids(self):
        return {c.get('node_id', 0) for c in self.nodes[0].get('children', [])
                if c.get('local_name') == 'save_counter'} if self.nodes else set()

    def expect_partial(self):
        """Silence the warning about checkpoint values left unused."""
        self.partial = True
        return self

    def __del__(self):
        try:
            unused = [] if self.partial else self._unused_values()
        except Exception:  # the interpreter is shutting down, or the root is half-gone
            return
        if unused:
            warnings.warn(f'Values in checkpoint {self.save_path} were not restored (no object '
                          f'at those paths): {unused}. Call .expect_partial() on the status '
                          f'returned by restore() when that is intended.', stacklevel=2)


# ---- the directory's `checkpoint` file --------------------------------------------------------

def _relative(directory, path):
    return os.path.relpath(path, directory) if os.path.dirname(path) == directory else path


def write_state(directory, latest, paths, timestamps, preserved=None):
    """Write `directory`/checkpoint (TensorFlow's CheckpointState in text format)."""
    lines = [f'model_checkpoint_path: "{_relative(directory, latest)}"']
    lines += [f'all_model_checkpoint_paths: "{_relative(directory, p)}"' for p in paths]
    lines += [f'all_model_checkpoint_timestamps: {t!r}' for t in timestamps]
    if preserved is not None:
        lines.append(f'last_preserved_timestamp: {preserved!r}')
    with open(os.path.join(directory or '.', STATE_FILE), 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


def read_state(directory):
    """(latest path or None, [all paths], [timestamps]) of `directory`/checkpoint."""
    try:
        with open(os.path.join(directory, STATE_FILE), encoding='utf-8') as f:
            text = f.read()
    except OSError:
        return None, [], []
    latest, paths, stamps = None, [], []
    for line in text.splitlines():
        key, _, value = line.partition(':')
        value = value.strip()
        if key == 'model_checkpoint_path':
            latest = _unquote(value)
        elif key == 'all_model_checkpoint_paths':
            paths.append(_unquote(value))
        elif key == 'all_model_checkpoint_timestamps':
            stamps.append(float(value))

    def absolute(p):
        return p if os.path.isabs(p) else os.path.join(directory, p)

    return (absolute(latest) if latest else None), [absolute(p) for p in paths], stamps


def _unquote(value):
    return value[1:-1].encode('latin-1').decode('unicode_escape') \
        if len(value) >= 2 and value[0] == value[-1] == '"' else value


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    latest, _, _ = read_state(checkpoint_dir)
    if latest is None or not os.path.exists(latest + '.index'):
        return None
    return latest


def checkpoint_prefix(ckpt_dir_or_file):
    """The prefix of a checkpoint given as its prefix or its directory (the latest there)."""
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        found = latest_checkpoint(path)
        if found is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}")
        return found
    return path


def list_variables(ckpt_dir_or_file):
    """[(checkpoint key, shape)] of a checkpoint (a prefix, or a directory's latest), sorted."""
    path = checkpoint_prefix(ckpt_dir_or_file)
    values = serialization.read_bundle(path)
    return sorted((k, list(np.shape(v)) if k != '_CHECKPOINTABLE_OBJECT_GRAPH' else [])
                  for k, v in values.items())


class CheckpointManager:
    """Numbered checkpoints in one directory, keeping the newest `max_to_keep` (None: all),
    and, with `keep_checkpoint_every_n_hours`, one checkpoint per that many hours besides
    (never deleted). With `checkpoint_interval`, `save()` writes only once `step_counter` (a
    variable or tensor) has advanced that many steps since the last checkpoint saved (at
    `last_checkpoint_step` for a manager resuming). `init_fn` is what
    `restore_or_initialize()` runs when there is no checkpoint to restore."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name='ckpt', step_counter=None, checkpoint_interval=None,
                 init_fn=None, last_checkpoint_step=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f'max_to_keep must be a positive integer or None, got '
                             f'{max_to_keep}.')
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError('`step_counter` should be passed if `checkpoint_interval` is not '
                             'None.')
        self.checkpoint = checkpoint
        self.directory = os.fspath(directory)
        self.max_to_keep = max_to_keep
        self.keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self.checkpoint_name = checkpoint_name
        self.step_counter = step_counter
        self.checkpoint_interval = checkpoint_interval
        self.init_fn = init_fn
        self.last_checkpoint_step = None if last_checkpoint_step is None else \
            _as_int(last_checkpoint_step)
        latest, paths, stamps = read_state(self.directory)
        self._latest = latest
        stamps = stamps if len(stamps) == len(paths) else [time.time()] * len(paths)
        self._kept = list(zip(paths, stamps))
        self._preserved = _last_preserved(self.directory)

    @property
    def checkpoints(self):
        """The kept checkpoints' prefixes, oldest first."""
        return [p for p, _ in self._kept]

    @property
    def latest_checkpoint(self):
        return self._latest

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Write the next numbered checkpoint, forget the oldest beyond `max_to_keep` (their
        files are deleted unless `keep_checkpoint_every_n_hours` preserves them); returns its
        prefix, or None when `checkpoint_interval` says it is not time to save yet."""
        if self.checkpoint_interval is not None:
            step = _as_int(self.step_counter)
            if self.last_checkpoint_step is not None:
                if step == self.last_checkpoint_step:
                    return None
                if check_interval and step < self.last_checkpoint_step + \
                        self.checkpoint_interval:
                    return None
            self.last_checkpoint_step = step
        counter = self.checkpoint.save_counter
        counter.storage.value = np.int64(counter.storage.value + 1)
        number = int(counter.storage.value) if checkpoint_number is None else \
            _as_int(checkpoint_number)
        os.makedirs(self.directory, exist_ok=True)
        path = self.checkpoint.write(os.path.join(self.directory,
                                                  f'{self.checkpoint_name}-{number}'))
        self._kept = [(p, t) for p, t in self._kept if p != path] + [(path, time.time())]
        while self.max_to_keep is not None and len(self._kept) > self.max_to_keep:
            old, stamp = self._kept.pop(0)
            hours = self.keep_checkpoint_every_n_hours
            if hours and stamp - hours * 3600.0 >= self._preserved:
                self._preserved = stamp  # kept for good: no longer in the managed list
                continue
            for name in (old + '.index', old + '.data-00000-of-00001'):
                if os.path.exists(name):
                    os.remove(name)
        self._latest = path
        write_state(self.directory, path, self.checkpoints, [t for _, t in self._kept],
                    self._preserved)
        return path

    def restore_or_initialize(self):
        """Restore the latest checkpoint if there is one (returns its path), else run
        `init_fn` (when given) and return None."""
        if self._latest is None:
            if self.init_fn is not None:
                self.init_fn()
            return None
        self.checkpoint.restore(self._latest)
        return self._latest


def _as_int(value):
    """A step or checkpoint number given as an int, a numpy scalar, a tensor or a variable."""
    read = getattr(value, 'numpy', None)
    return int(np.asarray(read() if callable(read) else value))


def _last_preserved(directory):
    """The `last_preserved_timestamp` of `directory`/checkpoint, or now."""
    try:
        with open(os.path.join(directory, STATE_FILE), encoding='utf-8') as f:
            lines = f.read().splitlines()
    except OSError:
        return time.time()  # no checkpoint yet: preserve from now on
    for line in lines:
        key, _, value = line.partition(':')
        if key.strip() == 'last_preserved_timestamp':
            return float(value)
    return time.time()
