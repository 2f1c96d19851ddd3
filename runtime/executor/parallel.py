"""Running independent heavy nodes on a thread pool (numpy releases the GIL in its kernels).

The cost rule: a stateless node whose estimated work is at least `HEAVY_FLOPS` is started on
the pool when another heavy node comes after it in program order but before the first node
that uses its result; that other node then runs on the calling thread at the same time, and
the result is awaited just before its first use. Below the threshold, handing work to a thread
costs more (tens of microseconds) than it saves, so everything else runs inline.

The pool starts on first use. A child forked from a process whose pool had started (e.g. by
`multiprocessing` with the 'fork' start method) has none of its threads, so the child forgets
the pool (`os.register_at_fork`) and starts its own on first use.
"""
import concurrent.futures
import os
import threading

HEAVY_FLOPS = 2_000_000

_pool = None
_pool_lock = threading.Lock()  # two threads making the first parallel call start one pool


def submit(kernel, *args, **kwargs):
    pool = _pool
    if pool is None:
        pool = _start_pool()
    return pool.submit(kernel, *args, **kwargs)


def _start_pool():
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2,
                                                          thread_name_prefix='rt-executor')
        return _pool


def _forget_pool_in_child():
    """After a fork, in the child: the parent's pool threads and lock holders are gone."""
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_pool_in_child)


def cost(node):
    """Estimated flops of `node`, or 0 when its shapes are not known."""
    if node.opdef.cost is not None:
        return node.opdef.cost([(v.dtype, v.shape) for v in node.inputs],
                               [(v.dtype, v.shape) for v in node.outputs]) or 0
    return sum(v.shape.num_elements() or 0 for v in node.outputs)


def concurrent_nodes(program):
    """The nodes of `program` to start on the pool (see the module docstring)."""
    if (os.cpu_count() or 1) < 2:
        return set()
    nodes = program.nodes
    heavy = [i for i, node in enumerate(nodes)
             if not node.opdef.stateful and node.opdef.control_flow is None and
             node.opdef.bind_kernel is None and len(node.outputs) == 1 and
             cost(node) >= HEAVY_FLOPS]
    if len(heavy) < 2:
        return set()
    position = {node: j for j, node in enumerate(nodes)}
    chosen = set()
    for i in heavy:
        users = nodes[i].outputs[0].users
        use = min((position[u] for u in users if u in position), default=len(nodes))
        if any(i < k < use for k in heavy if nodes[k] not in chosen):
            chosen.add(nodes[i])
    return chosen
