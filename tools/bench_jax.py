#!/usr/bin/env python3
"""JAX `jit` versions of the workloads of tools/bench_jit.py, timed against the same hand
numpy, for the comparison column of tools/bench.py. Needs only numpy and jax:

    python3 tools/bench_jax.py      # with a Python that has JAX

Prints one line a workload: JAX µs, hand numpy µs, ratio, first call ms.
"""
import time

import numpy as np


def jax_workloads():
    """(name, jitted JAX function, its args, hand numpy function, its args)."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    import bench_jit as hand

    @jax.jit
    def power(x):
        result = jnp.eye(10, dtype=jnp.int32)
        for _ in range(100):
            result = jnp.matmul(x, result)
        return result

    @jax.jit
    def range_sum(n):
        return lax.fori_loop(0, n, lambda i, total: total + i, jnp.int32(0))

    @jax.jit
    def collatz(n):
        def steps(start):
            def body(state):
                x, count = state
                x = lax.cond(x % 2 == 0, lambda x: x // 2, lambda x: 3 * x + 1, x)
                return x, count + 1
            return lax.while_loop(lambda s: s[0] != 1, body, (start, jnp.int32(0)))[1]
        return lax.fori_loop(1, n + 1, lambda start, total: total + steps(start), jnp.int32(0))

    @jax.jit
    def tensor_array_rows(n):
        base = jnp.arange(1.0, 9.0, dtype=jnp.float32)

        def body(i, rows):
            f = i.astype(jnp.float32)
            return rows.at[i].set(f * (base + f))
        return lax.fori_loop(0, 200, body, jnp.zeros((200, 8), jnp.float32))

    @jax.jit
    def if_elif(n):
        def body(i, total):
            return lax.switch(i % 3, [lambda t: t + i, lambda t: t - 1, lambda t: t + 2], total)
        return lax.fori_loop(0, n, body, jnp.int32(0))

    rng = np.random.default_rng(0)
    x = rng.integers(-1, 2, size=(10, 10)).astype(np.int32)
    return [
        ('power(x,100), 10x10 int32', power, (jnp.asarray(x),), hand.power_numpy, (x, 100)),
        ('rt.range(1000) sum loop', range_sum, (jnp.int32(1000),), hand.range_sum_numpy,
         (1000,)),
        ('Collatz steps, starts 1..100', collatz, (jnp.int32(100),), hand.collatz_numpy,
         (100,)),
        ('200 TensorArray row writes + stack', tensor_array_rows, (jnp.int32(200),),
         hand.tensor_array_rows_numpy, (200,)),
        ('if/elif chain in a 500-step loop', if_elif, (jnp.int32(500),), hand.if_elif_numpy,
         (500,)),
    ]


def _median(fn, number, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return float(np.median(times))


def measure_jax(quick=False):
    """{workload: (JAX µs, numpy µs, ratio, first call ms)}, or {} without JAX."""
    try:
        import jax  # noqa: F401 - deferred: an optional comparison
    except ImportError:
        return {}
    repeat = 3 if quick else 9
    results = {}
    for name, fn, args, numpy_fn, numpy_args in jax_workloads():
        start = time.perf_counter()
        fn(*args).block_until_ready()
        first = time.perf_counter() - start
        ours = _median(lambda: fn(*args).block_until_ready(), 20 if quick else 200, repeat)
        hand = _median(lambda: numpy_fn(*numpy_args), 2 if quick else 10, repeat)
        results[name] = (ours * 1e6, hand * 1e6, ours / hand, first * 1e3)
    return results


if __name__ == '__main__':
    for name, (ours, hand, ratio, first) in measure_jax().items():
        print(f'{name:<40} JAX {ours:9.2f} µs  numpy {hand:9.1f} µs  ratio {ratio:.3f}  '
              f'first call {first:.0f} ms')
