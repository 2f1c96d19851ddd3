"""`ag.to_code` shows readable Python; the CLI converts a file from its text without running it."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import autograph as ag
import runtime as rt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def simple_relu(x):
    if rt.greater(x, 0):
        return x
    else:
        return 0


def test_to_code_of_simple_relu_is_tensorflows_shape():
    code = ag.to_code(simple_relu)
    compile(code, '<to_code>', 'exec')
    assert code.startswith("def tf__simple_relu(x):\n"
                           "    fscope = ag__.new_scope('simple_relu', ag__.STD_REQUESTED)\n")
    # one form: the if_stmt over its block functions, the condition a converted call
    assert ("    ag__.if_stmt(ag__.converted_call(rt.greater, (x, 0), None, fscope), if_body, "
            "else_body,\n                 get_state, set_state, ('do_return', 'retval_'), 2, "
            "('do_return',))\n    return fscope.ret(retval_, do_return)\n") in code
    assert code.count('def ') == 5 and 'cond' not in code and 'callee' not in code
    assert max(len(line) for line in code.splitlines()) < 100


def test_the_executed_form_is_the_code_that_runs():
    code = ag.to_code(simple_relu, form='executed')
    # no scope lookup on entry: the slow paths read it where they need it
    assert code.startswith('def tf__simple_relu(x):\n    try:\n') and 'fscope' not in code
    assert code.endswith('\n    except:\n        ag__.unwind()\n        raise\n')
    # the condition's value picks the form: the staged one on a symbolic tensor, else Python's
    # a global's method: as written on a plain value (a compiled pattern), else the plan first
    assert ("if (cond := (rt.greater(x, 0) if ag__.type_(rt) in ag__.PLAIN_TYPES else "
            "(ag__.plan_of(ag__.id_((callee_ := rt.greater))) or "
            "(callee_ if ag__.type_(callee_) is ag__.MethodType" in code)
    assert ("ag__.callee(callee_, ag__.STD_REQUESTED_SCOPES.get('simple_relu') or "
            "ag__.new_scope('simple_relu', ag__.STD_REQUESTED))))(x, 0))) is not False and "
            "cond is not True and "
            "(ag__.type_(cond) not in ag__.PLAIN_TYPES) and ag__.is_staged(cond):" in code)
    assert ("ag__.if_stmt(cond, if_body, else_body, get_state, set_state, "
            "('do_return', 'retval_'), 2, ('do_return',))" in code)
    # the plain form returns for real; the staged form sets the return value
    assert ('\n        elif cond:\n            return x\n        else:\n            return 0\n'
            in code)
    # it is the source of the function that runs: the same variables, the same names read
    # (but `ag__`, a free variable of the code that runs)
    runs = ag.to_graph(simple_relu).__code__
    shown = compile(code, '<to_code>', 'exec').co_consts[0]
    assert shown.co_varnames == runs.co_varnames
    assert shown.co_names == ('ag__',) + runs.co_names


def test_set_loop_options_becomes_loop_options():
    def f(x):
        while x < 10:
            ag.experimental.set_loop_options(maximum_iterations=3)
            x = x + 1
        return x

    code = ag.to_code(f)
    assert 'set_loop_options' not in code
    assert "{'maximum_iterations': 3}" in code
    assert ag.to_graph(f)(0) == 10


def _cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, '-m', 'autograph', 'convert', *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=60)


def test_cli_converts_functions_and_methods_without_running_the_file(tmp_path):
    marker = tmp_path / 'ran'
    source = tmp_path / 'program.py'
    source.write_text(
        f'open({str(marker)!r}, "w").write("ran")\n\n'
        'def f(x):\n    if x > 0:\n        x = -x\n    return x\n\n'
        'class Model:\n    def step(self, y):\n        while y > 0:\n            y -= 1\n'
        '        return y\n')
    result = _cli(str(source), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert 'def tf__f(x):' in result.stdout and 'def tf__step(self, y):' in result.stdout
    assert not marker.exists()
    out = tmp_path / 'out.py'
    result = _cli(str(source), '--function', 'Model.step', '--output', str(out), cwd=tmp_path)
    assert result.returncode == 0 and 'ag__.while_stmt' in out.read_text()
    assert 'tf__f' not in out.read_text()
    assert 'is_staged' not in out.read_text()   # the readable form, by default
    result = _cli(str(source), '--function', 'f', '--form', 'executed', cwd=tmp_path)
    assert result.returncode == 0 and 'ag__.is_staged(cond)' in result.stdout
    assert 'is_staged' not in _cli(str(source), '--function', 'f', cwd=tmp_path).stdout


def test_cli_errors_are_one_line(tmp_path):
    bad = tmp_path / 'bad.py'
    bad.write_text('def f(:\n    pass\n')
    good = tmp_path / 'good.py'
    good.write_text('def f(x):\n    return x\n')
    for args in ([str(bad)], [str(tmp_path / 'missing.py')], [str(good), '--function', 'g']):
        result = _cli(*args, cwd=tmp_path)
        assert result.returncode != 0
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_to_code_of_something_without_python_source_is_a_type_error_naming_it():
    for thing, shown in ((len, 'builtin_function_or_method <built-in function len>'),
                         (Exception, "class <class 'Exception'>"),
                         (np.add, "ufunc <ufunc 'add'>")):
        with pytest.raises(TypeError, match=re.escape(f'got the {shown}, which has no Python '
                                                      f'source to convert')):
            ag.to_code(thing)


def _last_return_only(x):
    y = x + 1
    return y * 2


def _last_return_after_a_loop(n):
    items = []
    for i in range(n):
        items.append(i)
    return items


def _last_return(code):
    """The last line of the function's body (before the scope's `except` handler)."""
    lines = [line.strip() for line in code.splitlines()]
    assert lines[-3:] == ['except:', 'ag__.unwind()', 'raise']
    return lines[-4]


def test_a_function_whose_one_return_ends_it_keeps_a_plain_return():
    code = ag.to_code(_last_return_only, form='executed')
    assert re.fullmatch(r'return (ag__\.ld\(y\)|y) \* 2', _last_return(code))
    assert 'do_return' not in code and 'UndefinedReturnValue' not in code
    assert ag.to_code(_last_return_only).endswith('\n    return y * 2\n')
    assert ag.to_graph(_last_return_only)(2) == 6
    # a loop's appends may stage a list: the scope unstacks what is returned
    code = ag.to_code(_last_return_after_a_loop, form='executed')
    assert _last_return(code) == (
        "return (ag__.STD_REQUESTED_SCOPES.get('_last_return_after_a_loop') or ag__.new_scope("
        "'_last_return_after_a_loop', ag__.STD_REQUESTED)).ret(retval_, True, staged_before)")
    assert '\n        staged_before = ag__.STAGED_LISTS[0]\n' in code
    assert re.search(r'\n        retval_ = (ag__\.ld\(items\)|items)\n'
                     r'        if ag__\.STAGED_LISTS\[0\] is staged_before:\n'
                     r'            return retval_\n', code)
    # the readable form leaves the early exit out: `ret` returns the same value
    assert ag.to_code(_last_return_after_a_loop).endswith(
        '\n    retval_ = items\n    return fscope.ret(retval_, True, staged_before)\n')
    assert ag.to_graph(_last_return_after_a_loop)(3) == [0, 1, 2]
    staged = ag.function(_last_return_after_a_loop)(rt.constant(3))
    assert staged.numpy().tolist() == [0, 1, 2]
