"""Record what TensorFlow gives for the programs of tests/autograph_rt/surface_cases.py.

    /work/tfenv/bin/python tools/tf_surface_fixtures.py

writes tests/autograph_rt/fixtures/tf_surface.json, which tests/autograph_rt/test_tf_surface.py
compares with `autograph_rt`'s results (TensorFlow is never a project dependency).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(os.path.dirname(HERE), 'tests', 'autograph_rt')
sys.path.insert(0, TESTS)


def main():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
    import tensorflow as tf  # deferred: optional dependency (only this tool needs TensorFlow)
    from surface_cases import CASES, describe
    out = {}
    for name, program in CASES.items():
        try:
            out[name] = describe(program(tf))
        except Exception as e:  # the error type is what is compared
            out[name] = {'error': type(e).__name__}
    with open(os.path.join(TESTS, 'fixtures', 'tf_surface.json'), 'w') as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
