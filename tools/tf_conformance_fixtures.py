"""Record TensorFlow's answers to every sample of the op conformance database (tools/opinfo/)
into tests/runtime/conformance/fixtures/, one JSON file per op family. Run from the repository
root with a Python that has TensorFlow (never a project dependency):

    /path/to/tf-venv/bin/python -m tools.tf_conformance_fixtures [ENTRY ...]

For each sample: the outputs (value, dtype, shape), first and second order gradients, or the
error's type, eagerly; the same run inside a tf.function when it differs; and the static shapes
of a trace whose tensor arguments have unknown dims. With entry names, only those entries are
recorded again (the rest of their families' files is kept). Entries whose TensorFlow name does
not exist are listed and skipped. tf_ops.json lists the op types of TensorFlow's math, array,
nn and linalg modules, for the report's list of ops the registry lacks.
"""
import json
import os
import sys

import tensorflow as tf

from tools import opinfo

FIXTURES = os.path.join('tests', 'runtime', 'conformance', 'fixtures')


def record(entry: opinfo.OpInfo, lib: opinfo.Library) -> dict:
    samples = {}
    for sample in entry.generate():
        eager = opinfo.evaluate(lib, entry, sample, traced=False)
        traced = opinfo.evaluate(lib, entry, sample, traced=True)
        rec = {'digest': sample.digest(), 'eager': eager,
               'static': opinfo.static_shapes(lib, entry, sample)}
        if traced != eager:
            rec['traced'] = traced
        samples[sample.tag] = rec
    return {'call': entry.call, 'samples': samples}


def tf_ops_in_scope() -> dict[str, list[str]]:
    """The op types of TensorFlow's math, array, nn and linalg op modules (their generated
    wrappers, CamelCase), which the report compares with the registry."""
    from tensorflow.python.ops import (  # deferred: optional dependency tensorflow internals
        gen_array_ops,
        gen_linalg_ops,
        gen_math_ops,
        gen_nn_ops,
    )
    scope = {}
    for module in (gen_math_ops, gen_array_ops, gen_nn_ops, gen_linalg_ops):
        scope[module.__name__.rsplit('.', 1)[-1]] = sorted(
            name for name in dir(module) if name[:1].isupper() and hasattr(tf.raw_ops, name)
            and not name.startswith(('Quantized', 'Batch', 'Xla', '_')))  # not deprecated ones
    return scope


def main(argv: list[str]) -> None:
    tf.config.set_visible_devices([], 'GPU')
    lib = opinfo.Library(tf, tf.function)
    only = set(argv)
    os.makedirs(FIXTURES, exist_ok=True)
    for family, members in opinfo.families(opinfo.entries()).items():
        path = os.path.join(FIXTURES, f'{family}.json')
        data: dict = {}
        if only and os.path.exists(path):
            with open(path, encoding='utf-8') as f:
                data = json.load(f)
        for entry in members:
            if only and entry.name not in only:
                continue
            try:
                opinfo.resolve(tf, entry.call)
            except AttributeError:
                print(f'TensorFlow has no {entry.call}: {entry.name} skipped')
                continue
            data[entry.name] = record(entry, lib)
        text = json.dumps(data, separators=(',', ':'), sort_keys=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text + '\n')
        print(f'{path}: {len(data)} entries')
    with open(os.path.join(FIXTURES, 'tf_ops.json'), 'w', encoding='utf-8') as f:
        f.write(json.dumps(tf_ops_in_scope(), indent=0, sort_keys=True) + '\n')


if __name__ == '__main__':
    main(sys.argv[1:])
