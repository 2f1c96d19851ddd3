"""`torch.compile` versions of the workloads of tools/workloads.py (WORKLOADS), timed against the
same hand numpy, for the comparison columns of tools/bench.py's jit_compile=True table. Each is
written as a PyTorch user writes it fast: tensor code under `torch.compile` (Inductor, CPU),
vectorized where PyTorch has no compiled control flow (the Collatz steps: one compiled step of
every start at once, in a Python loop until all are done), `torch.func` for gradients.

    python3 -m tools.bench_torch [--json] [--quick]  # from the checkout's root, with torch

Prints one line a workload: torch.compile µs, hand numpy µs, ratio, first call ms.
"""
import importlib.util
import sys

from tools import timing, workloads


def torch_workloads():
    """(name, compiled function, its args, hand numpy function, its args)."""
    import torch  # deferred: optional dependency torch (a comparison, run in a side venv)

    @torch.compile
    def power(x):
        result = torch.eye(10, dtype=torch.int32)
        for _ in range(100):
            result = torch.matmul(x, result)
        return result

    @torch.compile
    def range_sum(n):
        return torch.arange(n, dtype=torch.int32).sum()

    @torch.compile
    def collatz_step(x, total):
        going = x != 1
        x = torch.where(going, torch.where(x % 2 == 0, x // 2, 3 * x + 1), x)
        return x, total + going.sum(dtype=torch.int32)

    def collatz(n):
        x, total = torch.arange(1, n + 1, dtype=torch.int32), torch.zeros((), dtype=torch.int32)
        while bool((x != 1).any()):
            x, total = collatz_step(x, total)
        return total

    @torch.compile
    def if_elif(n):
        i = torch.arange(n, dtype=torch.int32)
        k = i % 3
        return torch.where(k == 0, i, torch.where(k == 1, -1, 2)).sum(dtype=torch.int32)

    @torch.compile
    def tensor_array_rows(x):
        return torch.stack([x[i] * 2.0 for i in range(x.shape[0])])

    @torch.compile
    def elementwise(x):
        y = ((x * 2.0 + 1.0) * x - 3.0) / (x + 5.0)
        return torch.sum(torch.exp(torch.tanh(y)))

    @torch.compile
    def mlp_forward(x, weights, biases):
        for i in range(workloads.MLP_LAYERS):
            x = torch.relu(x @ weights[i] + biases[i])
        return x

    def loss_of(params, x, labels):
        w1, b1, w2, b2 = params
        logits = torch.relu(x @ w1 + b1) @ w2 + b2
        return torch.nn.functional.cross_entropy(logits, labels)

    @torch.compile
    def train_step(params, x, labels):
        grads, loss = torch.func.grad_and_value(loss_of)(params, x, labels)
        return loss, [w - 0.1 * g for w, g in zip(params, grads)]

    class TrainStep:  # the weights change at each step, as the Variables do
        def __init__(self):
            self.params = [torch.from_numpy(w.copy()) for w in workloads.training_data()[2]]

        def __call__(self, x, labels):
            loss, self.params = train_step(self.params, x, labels)
            return loss

    def rnn_loss(weights, xs):
        wx, wh = weights
        h = torch.zeros((workloads.RNN_BATCH, workloads.RNN_HIDDEN))
        for t in range(workloads.RNN_STEPS):
            h = torch.tanh(xs[t] @ wx + h @ wh)
        return torch.sum(h)

    @torch.compile
    def rnn_gradient(xs, wx, wh):
        gx, gh = torch.func.grad(rnn_loss)((wx, wh), xs)
        return torch.cat([gx.ravel(), gh.ravel()])

    def tensors(*arrays):
        return tuple(torch.from_numpy(a.copy()) for a in arrays)

    versions = {'power(x,100), 10x10 int32': (power, lambda x, _: tensors(x)),
                'rt.range(1000) sum loop': (range_sum, lambda n: (n,)),
                'Collatz steps for 1..100': (collatz, lambda n: (int(n),)),
                'if/elif chain in a 500-step loop': (if_elif, lambda n: (n,)),
                '200 TensorArray writes of x[i] * 2 then stack': (tensor_array_rows, tensors),
                'elementwise chain on 1M float32': (elementwise, tensors),
                'MLP forward, 50 layers 64x64': (mlp_forward, tensors),
                'training step: MLP, sparse xent, tape, SGD':
                    (TrainStep(), lambda x, labels: (torch.from_numpy(x.copy()),
                                                     torch.from_numpy(labels.astype('int64')))),
                'RNN gradient through rt.range(20)': (rnn_gradient, tensors)}
    by_name = {w.name: w for w in workloads.WORKLOADS}
    out = []
    for name, (fn, arguments) in versions.items():
        workload = by_name[name]
        numpy_args = workload.numpy_arguments()
        out.append((name, fn, arguments(*numpy_args), workload.numpy_program(), numpy_args))
    return out


def available():
    return importlib.util.find_spec('torch') is not None


def measure(quick=False):
    """{workload: (torch.compile µs, numpy µs, ratio, first call ms)}, or {} without torch."""
    if not available():
        return {}
    return timing.measure_versions(torch_workloads(), lambda result: result, quick)


if __name__ == '__main__':
    timing.peer_main(sys.modules[__name__])
