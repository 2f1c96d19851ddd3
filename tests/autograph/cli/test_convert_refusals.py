"""`autograph convert` refuses, in one line, a file Python itself cannot compile, also where the
parser accepts it and only the compiler refuses it."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))


def convert(path):
    return subprocess.run([sys.executable, '-m', 'autograph', 'convert', str(path)],
                          env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize('source, message', [
    ('def f(x):\n    return ' + ' + '.join(['x'] * 5000) + '\n',
     'Python cannot compile this file (RecursionError'),
    ('def f(x):\n    return x\n\n\nbreak\n', ":5: syntax error: 'break' outside loop"),
    ('def f(x):\n    nonlocal y\n    return x\n', ":2: syntax error: no binding for nonlocal 'y'"),
    ('def f(x):\n    return x\n\n\nreturn 1\n', ":5: syntax error: 'return' outside function"),
])
def test_what_python_cannot_compile_is_refused_in_one_line(tmp_path, source, message):
    path = tmp_path / 'program.py'
    path.write_text(source)
    with pytest.raises(BaseException):
        compile(source, str(path), 'exec')
    result = convert(path)
    assert result.returncode == 1
    assert result.stdout == ''
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert f'{path}' in result.stderr and message in result.stderr


def test_a_long_sum_python_compiles_converts_to_code_python_compiles(tmp_path):
    path = tmp_path / 'program.py'
    path.write_text('def f(x):\n    return ' + ' + '.join(['x'] * 1500) + '\n')
    result = convert(path)
    assert result.returncode == 0, result.stderr
    compile(result.stdout, 'converted.py', 'exec')
