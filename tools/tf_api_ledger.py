"""Record TensorFlow's public API into the ledger the `autograph_rt` namespace is checked against.

Run in a Python that has TensorFlow (never a project dependency):

    /work/tfenv/bin/python tools/tf_api_ledger.py

It walks `tf` and every public module under it (recursively), and writes, for each name, its
kind (`module`, `class`, `function`, `constant`) and, for functions and classes, the signature
(parameter names in order, their kinds and defaults). Two files come out:

- `tests/autograph_rt/fixtures/tf_api_ledger.json`: the whole ledger, with signatures, which
  `tests/autograph_rt/test_api_ledger.py` compares with `autograph_rt`;
- `autograph_rt/tf_names.json`: the names alone, per module, which `autograph_rt` reads when a
  name is missing, to say whether TensorFlow has it; and the groups of paths that are one
  object in TensorFlow (`tf.asinh` is `tf.math.asinh`), through which it finds a name under
  any of TensorFlow's paths for it.

What is in scope and what is not is not decided here: the ledger records TensorFlow as it is,
and `autograph_rt/scope.py` holds the decisions. The modules in SKIP_MEMBERS, and those outside
TensorFlow's generated API (Keras's, `tf.dtensor`), are recorded as modules without walking
them (the TF 1 copy in `compat`, the thousands of `raw_ops`, Keras).
"""
import inspect
import json
import os
import re
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LEDGER = os.path.join(ROOT, 'tests', 'autograph_rt', 'fixtures', 'tf_api_ledger.json')
NAMES = os.path.join(ROOT, 'autograph_rt', 'tf_names.json')

SKIP_MEMBERS = frozenset({'tf.compat', 'tf.raw_ops', 'tf.keras', 'tf.experimental.dtensor',
                          'tf.experimental.tensorrt', 'tf.lite', 'tf.mlir', 'tf.tools'})
SIMPLE = (type(None), bool, int, float, str)
# TensorFlow's generated public modules; others reachable from them (`tf.dtensor`, Keras's
# `tf.optimizers`) are recorded as names, not walked.
API_PREFIX = ('tensorflow._api.v2.', 'tensorflow.experimental')


def default_of(value):
    """A JSON form of a default: the value itself when it is a literal, else its type's name
    (for comparison, only literal defaults are checked)."""
    if value is inspect.Parameter.empty:
        return {'none': True}
    if isinstance(value, SIMPLE) and not (isinstance(value, float) and value != value):
        return {'value': value}
    if isinstance(value, (tuple, list)) and all(isinstance(v, SIMPLE) for v in value):
        return {'value': list(value), 'sequence': type(value).__name__}
    return {'object': type(value).__name__,
            'repr': re.sub(r' at 0x[0-9a-f]+', '', repr(value))[:80]}


def signature_of(obj, is_class):
    target = obj
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        signature = None
    if is_class and (signature is None or _catch_all(signature)):
        try:
            signature = inspect.signature(obj.__init__)
        except (TypeError, ValueError):
            return None
    if signature is None:
        return None
    params = []
    for i, p in enumerate(signature.parameters.values()):
        if i == 0 and p.name in ('self', 'cls') and is_class:
            continue
        entry = {'name': p.name, 'kind': p.kind.name}
        entry.update(default_of(p.default))
        params.append(entry)
    return params


def _catch_all(signature):
    kinds = [p.kind for p in signature.parameters.values()
             if p.name not in ('self', 'cls')]
    return kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]


def kind_of(value):
    if isinstance(value, types.ModuleType):
        return 'module'
    if inspect.isclass(value):
        return 'class'
    if callable(value):
        return 'function'
    return 'constant'


def walk(module, path, ledger, seen, objects):
    entries = {}
    ledger[path] = entries
    for name in sorted(dir(module)):
        if name.startswith('_'):
            continue
        try:
            value = getattr(module, name)
        except Exception:  # a lazily loaded module that cannot load here
            continue
        kind = kind_of(value)
        entry = {'kind': kind}
        if kind in ('function', 'class') or kind == 'constant' and not isinstance(value, SIMPLE):
            objects.setdefault(id(value), (value, []))[1].append(f'{path}.{name}')
        if kind in ('function', 'class'):
            params = signature_of(value, kind == 'class')
            if params is not None:
                entry['params'] = params
        if kind == 'class':
            entry['members'] = sorted(n for n in dir(value) if not n.startswith('_'))
        entries[name] = entry
        sub = f'{path}.{name}'
        if (kind == 'module' and sub not in SKIP_MEMBERS and id(value) not in seen
                and value.__name__.startswith(API_PREFIX)):
            seen.add(id(value))
            walk(value, sub, ledger, seen, objects)


def main():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
    import tensorflow as tf  # deferred: optional dependency (only this tool needs TensorFlow)
    ledger, objects = {}, {}
    walk(tf, 'tf', ledger, {id(tf)}, objects)
    # names that are one object under several paths (`tf.asinh` is `tf.math.asinh`)
    aliases = sorted(sorted(paths) for _, paths in objects.values() if len(paths) > 1)
    document = {'tensorflow_version': tf.__version__, 'modules': ledger}
    os.makedirs(os.path.dirname(LEDGER), exist_ok=True)
    with open(LEDGER, 'w') as f:
        json.dump(document, f, indent=0, sort_keys=True)
        f.write('\n')
    names = {'tensorflow_version': tf.__version__,
             'modules': {path: sorted(entries) for path, entries in ledger.items()},
             'aliases': aliases}
    with open(NAMES, 'w') as f:
        json.dump(names, f, indent=0, sort_keys=True)
        f.write('\n')
    total = sum(len(entries) for entries in ledger.values())
    print(f'TensorFlow {tf.__version__}: {len(ledger)} modules, {total} names -> '
          f'{os.path.relpath(LEDGER, ROOT)}, {os.path.relpath(NAMES, ROOT)}', file=sys.stderr)


if __name__ == '__main__':
    main()
