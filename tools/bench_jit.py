"""The `jit_compile=True` workloads of tools/bench.py, with their hand-written numpy versions.

Each workload is a function written for `ag.function` and a numpy function computing the same
result the way one would by hand (numpy scalars in Python loops). `measure_jit` times both,
the default executor and `jit_compile=True` in one run, and the first call (trace + native
compile) of a fresh `jit_compile=True` Function. JAX versions live in tools/bench_jax.py, run
with a Python that has JAX.
"""
import time

import numpy as np

import autograph as ag
import runtime as rt


def power(x, y):
    result = rt.eye(10, dtype=rt.int32)
    for _ in range(y):
        result = rt.matmul(x, result)
    return result


def power_numpy(x, y):
    result = np.eye(10, dtype=np.int32)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def range_sum(n):
    total = 0
    for i in rt.range(n):
        total += i
    return total


def range_sum_numpy(n):
    total = np.int32(0)
    for i in np.arange(n, dtype=np.int32):
        total = total + i
    return total


def collatz(n):
    """Total Collatz steps of the starts 1..n."""
    total = 0
    for start in rt.range(1, n + 1):
        x = start
        steps = 0
        while x != 1:
            if x % 2 == 0:
                x = x // 2
            else:
                x = 3 * x + 1
            steps += 1
        total += steps
    return total


def collatz_numpy(n):
    total = np.int32(0)
    one, two, three = np.int32(1), np.int32(2), np.int32(3)
    for start in np.arange(1, n + 1, dtype=np.int32):
        x = start
        steps = np.int32(0)
        while x != one:
            if x % two == 0:
                x = x // two
            else:
                x = three * x + one
            steps = steps + one
        total = total + steps
    return total


def tensor_array_rows(n):
    """Write row i = i * (i + [1, ..., 8]) into a TensorArray for 200 steps, then stack."""
    rows = rt.TensorArray(rt.float32, size=n)
    base = rt.range(1.0, 9.0)
    for i in rt.range(n):
        f = rt.cast(i, rt.float32)
        rows = rows.write(i, f * (base + f))
    return rows.stack()


def tensor_array_rows_numpy(n):
    rows = np.empty((n, 8), np.float32)
    base = np.arange(1.0, 9.0, dtype=np.float32)
    for i in range(n):
        f = np.float32(i)
        rows[i] = f * (base + f)
    return rows


def if_elif(n):
    """A chain of if/elif/else on the counter inside a loop."""
    total = 0
    for i in rt.range(n):
        if i % 3 == 0:
            total += i
        elif i % 3 == 1:
            total -= 1
        else:
            total += 2
    return total


def if_elif_numpy(n):
    total = np.int32(0)
    three = np.int32(3)
    for i in np.arange(n, dtype=np.int32):
        r = i % three
        if r == 0:
            total = total + i
        elif r == 1:
            total = total - np.int32(1)
        else:
            total = total + np.int32(2)
    return total


def workloads():
    """(name, graph function, numpy function, graph args, numpy args, JAX's ratio to numpy)."""
    rt.random.set_seed(0)
    x = rt.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=rt.int32)
    return [
        ('power(x,100), 10x10 int32', power, power_numpy, (x, 100), (x.numpy(), 100), 0.79),
        ('rt.range(1000) sum loop', range_sum, range_sum_numpy, (rt.constant(1000),),
         (1000,), 0.18),
        ('Collatz steps, starts 1..100', collatz, collatz_numpy, (rt.constant(100),), (100,),
         0.047),
        ('200 TensorArray row writes + stack', tensor_array_rows, tensor_array_rows_numpy,
         (rt.constant(200),), (200,), 0.071),
        ('if/elif chain in a 500-step loop', if_elif, if_elif_numpy, (rt.constant(500),),
         (500,), 0.080),
    ]


def _median_time(fn, number, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return float(np.median(times))


def measure_jit(quick=False):
    """One dict a workload: µs per call of numpy, the default executor and jit, their ratios,
    and the first call of jit in ms (trace + lower + compile, or load from the disk cache),
    after a first row timing numba's start-up. Times and ratios are medians over rounds that
    time the three back to back."""
    repeat = 3 if quick else 9
    rows = [numba_startup()]
    for name, fn, numpy_fn, args, numpy_args, jax_ratio in workloads():
        default = ag.function(fn)
        expected = default(*args).numpy()
        start = time.perf_counter()
        jit = ag.function(fn, jit_compile=True)
        got = jit(*args).numpy()
        first_call = time.perf_counter() - start
        if not np.allclose(got, expected, rtol=1e-6) or got.dtype != expected.dtype:
            raise AssertionError(f'{name}: jit gives {got!r}, the default executor {expected!r}')
        numpy_call = lambda: numpy_fn(*numpy_args)  # noqa: E731
        once = _median_time(numpy_call, 1, 3)
        number = 2 if quick else max(1, int(0.01 / max(once, 1e-7)))
        jit_number = number if quick else max(1, int(0.01 / max(once / 20, 1e-7)))
        rounds = []  # the three timed back to back, so load on the machine hits them alike
        for _ in range(repeat):
            rounds.append((_median_time(numpy_call, number, 1),
                           _median_time(lambda: default(*args), number, 1),
                           _median_time(lambda: jit(*args), jit_number, 1)))
        hand, default_time, jit_time = (float(np.median(column)) for column in zip(*rounds))
        rows.append({
            'workload': name,
            'numpy_us': hand * 1e6,
            'default_us': default_time * 1e6,
            'jit_us': jit_time * 1e6,
            'default_ratio': float(np.median([d / h for h, d, _ in rounds])),
            'jit_ratio': float(np.median([j / h for h, _, j in rounds])),
            'jit_first_call_ms': first_call * 1e3,
            'jax_ratio': jax_ratio,
        })
    return rows


def numba_startup():
    """Once per process: importing numba and its first compile, which no cache saves."""
    start = time.perf_counter()
    import numba  # deferred: measured here
    numba.njit(lambda n: n + 1)(1)
    return {'workload': 'numba import + first compile (once a process)',
            'jit_first_call_ms': (time.perf_counter() - start) * 1e3}
