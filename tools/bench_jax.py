#!/usr/bin/env python3
"""JAX `jit` versions of the workloads of tools/workloads.py (WORKLOADS), timed against the same
hand numpy, for the comparison column of its jit_compile=True table. Needs numpy, jax and this
checkout on the path (the hand numpy versions live in tools/workloads.py):

    python3 -m tools.bench_jax      # from the checkout's root, with a Python that has JAX

Prints one line a workload: JAX µs, hand numpy µs, ratio, first call ms.
"""
import time

from tools import workloads
from tools.bench_jit import median_time


def jax_workloads():
    """(name, jitted JAX function, its args, hand numpy function, its args)."""
    import jax
    import jax.numpy as jnp
    from jax import lax

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
    def tensor_array_rows(x):
        def body(i, rows):
            return rows.at[i].set(x[i] * 2.0)
        return lax.fori_loop(0, x.shape[0], body, jnp.zeros_like(x))

    @jax.jit
    def elementwise(x):
        y = ((x * 2.0 + 1.0) * x - 3.0) / (x + 5.0)
        return jnp.sum(jnp.exp(jnp.tanh(y)))

    @jax.jit
    def if_elif(n):
        def body(i, total):
            return lax.switch(i % 3, [lambda t: t + i, lambda t: t - 1, lambda t: t + 2], total)
        return lax.fori_loop(0, n, body, jnp.int32(0))

    @jax.jit
    def mlp_forward(x, weights, biases):
        for i in range(workloads.MLP_LAYERS):
            x = jax.nn.relu(x @ weights[i] + biases[i])
        return x

    def loss_of(params, x, labels):
        w1, b1, w2, b2 = params
        logits = jax.nn.relu(x @ w1 + b1) @ w2 + b2
        log_p = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(log_p, labels[:, None], axis=1))

    @jax.jit
    def train_step(params, x, labels):
        loss, grads = jax.value_and_grad(loss_of)(params, x, labels)
        return loss, [w - 0.1 * g for w, g in zip(params, grads)]

    class TrainStep:  # the weights change at each step, as the Variables do
        def __init__(self):
            self.params = [jnp.asarray(w) for w in workloads.training_data()[2]]

        def __call__(self, x, labels):
            loss, self.params = train_step(self.params, x, labels)
            return loss

    def rnn_loss(weights, xs):
        wx, wh = weights

        def step(h, x):
            return jnp.tanh(x @ wx + h @ wh), None
        start = jnp.zeros((workloads.RNN_BATCH, workloads.RNN_HIDDEN), jnp.float32)
        h, _ = lax.scan(step, start, xs)
        return jnp.sum(h)

    @jax.jit
    def rnn_gradient(xs, wx, wh):
        gx, gh = jax.grad(rnn_loss)((wx, wh), xs)
        return jnp.concatenate([gx.ravel(), gh.ravel()])

    by_name = {w.name: w for w in workloads.WORKLOADS}
    jax_versions = {'power(x,100), 10x10 int32': (power, lambda x, _: (jnp.asarray(x),)),
                    'rt.range(1000) sum loop': (range_sum, lambda n: (jnp.int32(n),)),
                    'Collatz steps for 1..100': (collatz, lambda n: (jnp.int32(n),)),
                    'if/elif chain in a 500-step loop': (if_elif, lambda n: (jnp.int32(n),)),
                    '200 TensorArray writes of x[i] * 2 then stack':
                        (tensor_array_rows, lambda x: (jnp.asarray(x),)),
                    'elementwise chain on 1M float32': (elementwise, lambda x: (jnp.asarray(x),)),
                    'MLP forward, 50 layers 64x64':
                        (mlp_forward, lambda *a: tuple(jnp.asarray(v) for v in a)),
                    'training step: MLP, sparse xent, tape, SGD':
                        (TrainStep(), lambda *a: tuple(jnp.asarray(v) for v in a)),
                    'RNN gradient through rt.range(20)':
                        (rnn_gradient, lambda *a: tuple(jnp.asarray(v) for v in a))}
    out = []
    for name, (fn, arguments) in jax_versions.items():
        workload = by_name[name]
        numpy_args = workload.numpy_arguments()
        out.append((name, fn, arguments(*numpy_args), workload.numpy_program(), numpy_args))
    return out


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
        ours = median_time(lambda: fn(*args).block_until_ready(), 20 if quick else 200, repeat)
        hand = median_time(lambda: numpy_fn(*numpy_args), 2 if quick else 10, repeat)
        results[name] = (ours * 1e6, hand * 1e6, ours / hand, first * 1e3)
    return results


if __name__ == '__main__':
    for name, (ours, hand, ratio, first) in measure_jax().items():
        print(f'{name:<40} JAX {ours:9.2f} µs  numpy {hand:9.1f} µs  ratio {ratio:.3f}  '
              f'first call {first:.0f} ms')
