"""Write the TensorFlow side of the parity corpus (run with a Python that has tensorflow; it is
never a project dependency):

    /path/to/tf-venv/bin/python -m tools.tf_parity_fixtures [NAME ...]   # from the repository root

Runs every program in tests/parity/programs/ (or the named ones) with `tf` bound to TensorFlow
and writes tests/parity/fixtures/NAME.json: the recorded values (dtype, shape, data), the
printed output and the exception, if any. tests/parity/test_parity.py runs the same programs
on runtime/autograph and compares.
"""
import contextlib
import io
import json
import os
import sys
import tempfile

import tensorflow as tf

from tests.parity import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARITY = os.path.join(ROOT, 'tests', 'parity')


@contextlib.contextmanager
def capture_fd_stdout(buffer):
    """Capture file descriptor 1: tf.print(output_stream=sys.stdout) writes there from C++,
    and Python's print goes through an unbuffered writer so that the two interleave in order."""
    sys.stdout.flush()
    saved_fd = os.dup(1)
    saved_stdout = sys.stdout
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        sys.stdout = io.TextIOWrapper(os.fdopen(os.dup(1), 'wb', buffering=0), write_through=True)
        try:
            yield
        finally:
            sys.stdout.close()
            sys.stdout = saved_stdout
            os.dup2(saved_fd, 1)
            os.close(saved_fd)
            tmp.seek(0)
            buffer.write(tmp.read().decode('utf-8'))


def main(names):
    programs = os.path.join(PARITY, 'programs')
    names = names or sorted(n[:-3] for n in os.listdir(programs) if n.endswith('.py'))
    for name in names:
        path = os.path.join(programs, name + '.py')
        tf.random.set_seed(0)
        result = harness.run_program(path, tf, stdout_capture=capture_fd_stdout)
        result['tensorflow'] = tf.__version__
        with open(os.path.join(PARITY, 'fixtures', name + '.json'), 'w') as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write('\n')
        status = result['error']['type'] if result['error'] else 'ok'
        print(f'{name}: {len(result["records"])} records, {status}', file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1:])
