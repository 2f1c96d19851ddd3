"""Record the facts TensorFlow's op registry holds about every op type the runtime's registry
has: input and output arg names (a list-valued arg as one name), whether the op is stateful,
and the dtypes its type attrs accept. Written to tests/runtime/ops/fixtures/tf_opdefs.json,
which tests/runtime/ops/test_opdefs_match_tensorflow.py compares with runtime.ops.REGISTRY,
and the dtypes each op accepts to runtime/ops/allowed_dtypes.py, which the registry reads.
Run from the repository root with a Python that has TensorFlow (never a project dependency):

    /path/to/tf-venv/bin/python -m tools.tf_opdef_fixtures

The op types are read from the registry by a child process of the project's own Python
(`python3`, or $AUTOGRAPH_RT_PYTHON), since TensorFlow's venv need not have the project's
dependencies.
"""
import json
import os
import subprocess
import sys

from tensorflow.python.framework import dtypes, op_def_registry

FIXTURE = os.path.join('tests', 'runtime', 'ops', 'fixtures', 'tf_opdefs.json')
ALLOWED = os.path.join('runtime', 'ops', 'allowed_dtypes.py')
HEADER = '''\"\"\"The dtypes TensorFlow {version}'s op registry allows for each op type's type
attrs (`T`, ...), as far as numpy has them: the registry (runtime/ops/registry.py) gives an
OpDef these as its `dtypes` unless it declares its own. Written by
tools/tf_opdef_fixtures.py; do not edit.
\"\"\"
# ruff: noqa: E501
# op type -> {{type attr: dtype names}}
ALLOWED: dict[str, dict[str, tuple[str, ...]]] = {{
'''
NUMPY_HAS = {'bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
             'float16', 'float32', 'float64', 'complex64', 'complex128', 'string', 'variant',
             'resource'}
LIST_OPS = "from runtime.ops.registry import REGISTRY; print('\\n'.join(sorted(REGISTRY)))"


def our_op_types() -> list[str]:
    python = os.environ.get('AUTOGRAPH_RT_PYTHON', 'python3')
    done = subprocess.run([python, '-c', LIST_OPS], capture_output=True, text=True, check=True)
    return done.stdout.split()


def facts(op_def) -> dict:
    allowed = {}
    for attr in op_def.attr:
        if attr.type == 'type' and attr.allowed_values.list.type:
            allowed[attr.name] = sorted(dtypes.as_dtype(t).name
                                        for t in attr.allowed_values.list.type)
    return {'inputs': [a.name for a in op_def.input_arg],
            'outputs': [a.name for a in op_def.output_arg],
            'stateful': bool(op_def.is_stateful),
            'type_attrs': allowed}


def main() -> None:
    ops = {}
    for name in our_op_types():
        op_def = op_def_registry.get(name)
        if op_def is not None:
            ops[name] = facts(op_def)
    document = {'tensorflow_version': __import__('tensorflow').__version__, 'ops': ops}
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with open(FIXTURE, 'w', encoding='utf-8') as f:
        json.dump(document, f, indent=0, sort_keys=True)
        f.write('\n')
    print(f'{FIXTURE}: {len(ops)} op types', file=sys.stderr)
    write_allowed(ops, document['tensorflow_version'])


def write_allowed(ops: dict, version: str) -> None:
    lines = [HEADER.format(version=version)]
    for name, found in sorted(ops.items()):
        attrs = {attr: tuple(t for t in names if t in NUMPY_HAS)
                 for attr, names in sorted(found['type_attrs'].items())}
        if attrs:
            lines.append(f'    {name!r}: {{' + ', '.join(
                f'{attr!r}: {names!r}' for attr, names in attrs.items()) + '},\n')
    lines.append('}\n')
    with open(ALLOWED, 'w', encoding='utf-8') as f:
        f.write(''.join(lines))


if __name__ == '__main__':
    main()
