"""The workloads of the benchmarks: each program written for `ag.function`, its hand-written
numpy twin and, where it applies, plain Python, with their arguments.

`WORKLOADS` is the one table that tools/bench.py (default executor), tools/bench_jit.py
(`jit_compile=True`), tools/bench_jax.py (JAX `jit`), tools/bench_torch.py (`torch.compile`) and
the tests run; a new process finds a workload by its index in it.
"""
import dataclasses

import numpy as np

import runtime as rt

# ---- the seed's programs ---------------------------------------------------------------------


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


# ---- control flow, TensorArray and memory: ours, hand numpy, plain Python ----------------

def collatz(limit):
    """Total Collatz steps for the starts 1..limit (nested while, %, //, !=)."""
    total = 0
    start = 1
    while start <= limit:
        x = start
        while x != 1:
            if x % 2 == 0:
                x = x // 2
            else:
                x = 3 * x + 1
            total += 1
        start += 1
    return total


def collatz_numpy(limit):
    """Hand numpy: the same loops on numpy int32 scalars (plain Python: `collatz(100)`)."""
    total, start = np.int32(0), np.int32(1)
    one, two, three = np.int32(1), np.int32(2), np.int32(3)
    while start <= limit:
        x = start
        while x != one:
            if x % two == 0:
                x = x // two
            else:
                x = three * x + one
            total = total + one
        start = start + one
    return total


def if_chain(n):
    """An if/elif chain inside a counted loop."""
    acc = 0
    for i in rt.range(n):
        k = i % 3
        if k == 0:
            acc = acc + i
        elif k == 1:
            acc = acc - 1
        else:
            acc = acc + 2
    return acc


def if_chain_numpy(n):
    acc = np.int32(0)
    zero, one, two, three = np.int32(0), np.int32(1), np.int32(2), np.int32(3)
    for i in np.arange(n, dtype=np.int32):
        k = i % three
        if k == zero:
            acc = acc + i
        elif k == one:
            acc = acc - one
        else:
            acc = acc + two
    return acc


def if_chain_python(n):
    acc = 0
    for i in range(n):
        k = i % 3
        if k == 0:
            acc = acc + i
        elif k == 1:
            acc = acc - 1
        else:
            acc = acc + 2
    return acc


def tensor_array_rows(x):
    """Write each row of x, doubled, into a TensorArray, then stack."""
    rows = rt.TensorArray(rt.float32, size=x.shape[0])
    for i in rt.range(x.shape[0]):
        rows = rows.write(i, x[i] * 2.0)
    return rows.stack()


def tensor_array_rows_numpy(x):
    rows = []
    two = np.float32(2.0)
    for i in range(x.shape[0]):
        rows.append(x[i] * two)
    return np.stack(rows)


def elementwise(x):
    y = ((x * 2.0 + 1.0) * x - 3.0) / (x + 5.0)
    return rt.reduce_sum(rt.exp(rt.tanh(y)))


def elementwise_numpy(x):
    y = ((x * np.float32(2.0) + np.float32(1.0)) * x - np.float32(3.0)) / (x + np.float32(5.0))
    return np.sum(np.exp(np.tanh(y)))


# ---- model workloads: an MLP forward, a training step, an RNN gradient ------------------------

MLP_LAYERS, MLP_WIDTH = 50, 64


def mlp_arguments():
    """x [64, 64], weights [50, 64, 64] (scaled to keep activations in range), biases [50, 64]."""
    rng = np.random.default_rng(1)
    return (rng.standard_normal((MLP_WIDTH, MLP_WIDTH), np.float32),
            (rng.standard_normal((MLP_LAYERS, MLP_WIDTH, MLP_WIDTH), np.float32) /
             np.float32(np.sqrt(MLP_WIDTH))),
            rng.standard_normal((MLP_LAYERS, MLP_WIDTH), np.float32) * np.float32(0.1))


def mlp_forward(x, weights, biases):
    """50 dense layers with ReLU, unrolled by the Python loop."""
    for i in range(MLP_LAYERS):
        x = rt.nn.relu(rt.matmul(x, weights[i]) + biases[i])
    return x


def mlp_forward_numpy(x, weights, biases):
    for i in range(MLP_LAYERS):
        x = np.maximum(x @ weights[i] + biases[i], np.float32(0))
    return x


def training_data():
    """A batch of 64 examples of 32 features, 10 classes, and the MLP's initial weights."""
    rng = np.random.default_rng(2)
    return (rng.standard_normal((64, 32), np.float32), rng.integers(0, 10, 64).astype(np.int32),
            [rng.standard_normal(shape, np.float32) * np.float32(0.3)
             for shape in ((32, 64), (64,), (64, 10), (10,))])


class TrainStep:
    """One SGD step of a 32-64-10 MLP on sparse softmax cross-entropy (GradientTape); each
    instance has its own Variables, so the executors compared start from the same weights."""

    def __init__(self):
        self.variables = [rt.Variable(w) for w in training_data()[2]]
        self.optimizer = rt.optimizers.SGD(0.1)

    def __call__(self, x, labels):
        w1, b1, w2, b2 = self.variables
        with rt.GradientTape() as tape:
            hidden = rt.nn.relu(rt.matmul(x, w1) + b1)
            logits = rt.matmul(hidden, w2) + b2
            loss = rt.reduce_mean(rt.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        grads = tape.gradient(loss, self.variables)
        self.optimizer.apply_gradients(zip(grads, self.variables))
        return loss


class TrainStepNumpy:
    """The same step by hand: forward, softmax cross-entropy, backward, SGD in place."""

    def __init__(self):
        self.weights = [w.copy() for w in training_data()[2]]

    def __call__(self, x, labels):
        w1, b1, w2, b2 = self.weights
        pre = x @ w1 + b1
        hidden = np.maximum(pre, np.float32(0))
        logits = hidden @ w2 + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        probs = exp / exp.sum(axis=1, keepdims=True)
        rows = np.arange(len(labels))
        loss = np.mean(np.log(exp.sum(axis=1)) - shifted[rows, labels])
        dlogits = probs
        dlogits[rows, labels] -= np.float32(1)
        dlogits /= np.float32(len(labels))
        dhidden = (dlogits @ w2.T) * (pre > 0)
        for w, g in zip(self.weights, (x.T @ dhidden, dhidden.sum(0), hidden.T @ dlogits,
                                       dlogits.sum(0))):
            w -= np.float32(0.1) * g
        return np.float32(loss)


RNN_STEPS, RNN_BATCH, RNN_IN, RNN_HIDDEN = 20, 16, 16, 32


def rnn_arguments():
    rng = np.random.default_rng(3)
    return (rng.standard_normal((RNN_STEPS, RNN_BATCH, RNN_IN), np.float32),
            rng.standard_normal((RNN_IN, RNN_HIDDEN), np.float32) * np.float32(0.3),
            rng.standard_normal((RNN_HIDDEN, RNN_HIDDEN), np.float32) * np.float32(0.3))


def rnn_gradient(xs, wx, wh):
    """d sum(h_T) / d(wx, wh) of h_t = tanh(x_t wx + h_t-1 wh), through `for t in rt.range`."""
    with rt.GradientTape() as tape:
        tape.watch([wx, wh])
        h = rt.zeros([RNN_BATCH, RNN_HIDDEN])
        for t in rt.range(RNN_STEPS):
            h = rt.tanh(rt.matmul(xs[t], wx) + rt.matmul(h, wh))
        loss = rt.reduce_sum(h)
    gx, gh = tape.gradient(loss, [wx, wh])
    return rt.concat([rt.reshape(gx, [-1]), rt.reshape(gh, [-1])], 0)


def rnn_gradient_numpy(xs, wx, wh):
    hs = [np.zeros((RNN_BATCH, RNN_HIDDEN), np.float32)]
    for t in range(RNN_STEPS):
        hs.append(np.tanh(xs[t] @ wx + hs[-1] @ wh))
    gx, gh = np.zeros_like(wx), np.zeros_like(wh)
    grad = np.ones_like(hs[-1])
    for t in reversed(range(RNN_STEPS)):
        pre = grad * (np.float32(1) - hs[t + 1] * hs[t + 1])
        gx += xs[t].T @ pre
        gh += hs[t].T @ pre
        grad = pre @ wh.T
    return np.concatenate([gx.ravel(), gh.ravel()])


@dataclasses.dataclass(frozen=True)
class Workload:
    """One program of the tables: `function` (an rt program, run through `ag.function`) on
    `arguments()`, against `numpy` (hand-written) and `python` (plain Python, or None) on
    `numpy_arguments()`. `number` calls make one timing sample; `memory` also compares peak
    memory; `target` is the ratio to hand numpy aimed for. `seed`: a seed program, whose
    default-executor rows the seed section prints; `jax_ratio`: JAX jit's ratio to hand numpy
    measured once (printed where JAX is not installed). The jit_compile=True table
    (tools/bench_jit.py) runs every workload."""
    name: str
    function: object
    arguments: object
    numpy: object
    numpy_arguments: object
    python: object
    number: int
    target: str
    memory: bool = False
    seed: bool = False
    jax_ratio: float | None = None
    fresh: bool = False  # `function` and `numpy` are classes: each run takes a new instance

    def program(self):
        """The function to trace (a new instance of a stateful one)."""
        return self.function() if self.fresh else self.function

    def numpy_program(self):
        return self.numpy() if self.fresh else self.numpy


def power_matrix():
    """The seed's 10x10 int32 matrix of -1, 0 and 1."""
    rt.random.set_seed(0)
    return rt.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=rt.int32)


WORKLOADS = [
    Workload('power(x,100), 10x10 int32', power, lambda: (power_matrix(), 100), power_numpy,
             lambda: (power_matrix().numpy(), 100), None, 300, '<= 1.10', seed=True,
             jax_ratio=0.79),
    Workload('rt.range(1000) sum loop', range_sum, lambda: (rt.constant(1000),),
             range_sum_numpy, lambda: (1000,), None, 100, '<= 1.5', seed=True, jax_ratio=0.18),
    Workload('Collatz steps for 1..100', collatz, lambda: (rt.constant(100),), collatz_numpy,
             lambda: (np.int32(100),), collatz, 10, '<= 1.5', jax_ratio=0.047),
    Workload('if/elif chain in a 500-step loop', if_chain, lambda: (rt.constant(500),),
             if_chain_numpy, lambda: (500,), if_chain_python, 100, '<= 1.5', jax_ratio=0.080),
    Workload('200 TensorArray writes of x[i] * 2 then stack', tensor_array_rows,
             lambda: (rt.constant(np.arange(1600, dtype=np.float32).reshape(200, 8)),),
             tensor_array_rows_numpy,
             lambda: (np.arange(1600, dtype=np.float32).reshape(200, 8),), None, 100, '<= 1.5',
             jax_ratio=0.071),
    Workload('elementwise chain on 1M float32', elementwise,
             lambda: (rt.constant(np.random.default_rng(0).random(1_000_000, dtype=np.float32)),),
             elementwise_numpy,
             lambda: (np.random.default_rng(0).random(1_000_000, dtype=np.float32),), None, 20,
             '<= 1.3', memory=True, jax_ratio=0.54),
    Workload('MLP forward, 50 layers 64x64', mlp_forward,
             lambda: tuple(rt.constant(a) for a in mlp_arguments()), mlp_forward_numpy,
             mlp_arguments, None, 20, '<= 1.3'),
    Workload('training step: MLP, sparse xent, tape, SGD', TrainStep,
             lambda: tuple(rt.constant(a) for a in training_data()[:2]), TrainStepNumpy,
             lambda: training_data()[:2], None, 50, '<= 1.5', fresh=True),
    Workload('RNN gradient through rt.range(20)', rnn_gradient,
             lambda: tuple(rt.constant(a) for a in rnn_arguments()), rnn_gradient_numpy,
             rnn_arguments, None, 20, '<= 1.5'),
]
