"""Write tests/runtime/fixtures/io_more.json: what TensorFlow gives for the programs of
tools/io_more_cases.py (tf.train.Example bytes, TFRecord files, file datasets,
tf.data.experimental, check numerics). Run with a Python that has tensorflow (never a project
dependency):

    /path/to/tf-venv/bin/python tools/tf_io_more_fixtures.py
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'tests', 'runtime', 'fixtures', 'io_more.json')


def main():
    sys.path.insert(0, os.path.join(ROOT, 'tools'))
    import io_more_cases  # noqa: PLC0415 - tools/ is on the path only here
    import tensorflow as tf  # noqa: PLC0415 - the recorder's optional dependency

    results = {}
    for name, fn in io_more_cases.CASES.items():
        with tempfile.TemporaryDirectory() as scratch:
            results[name] = fn(tf, scratch)
    with open(OUT, 'w') as f:
        json.dump({'tensorflow': tf.__version__, 'cases': results}, f, indent=1,
                  sort_keys=True)
        f.write('\n')
    print(f'wrote {len(results)} cases to {OUT}')


if __name__ == '__main__':
    main()
