"""The gradients of rt.py_function and rt.numpy_function (runtime/ops/py_func.py; TensorFlow's
script_ops): only `EagerPyFunc` is differentiable, by running its function again under a tape."""
from runtime.gradients.rules.common import defgradient, not_differentiable
from runtime.gradients.tape import GradientTape
from runtime.ops import py_func
from runtime.ops.py_func import checked_results, py_function
from runtime.ops.shaping import reshape, static_or_dynamic_shape


@defgradient(py_func.EAGER_PY_FUNC)
def _eager_py_func_gradient(op, *grads):
    """An EagerPyFunc that re-runs the function (the op's payload) under a tape on the op's
    inputs and returns the gradients of its float inputs (zeros where they do not reach a
    result)."""
    func, inputs = op.payload, list(op.inputs)
    wanted = [i for i, t in enumerate(inputs) if t.dtype.is_floating]
    used = [k for k, (t, g) in enumerate(zip(op.outputs, grads))
            if g is not None and t.dtype.is_floating]
    if not wanted or not used:
        return [None] * len(inputs)
    n = len(inputs)

    def backward(*args):
        xs, dys = args[:n], args[n:]
        sources = [xs[i] for i in wanted]
        with GradientTape() as tape:
            tape.watch(sources)
            results = checked_results(func(*xs), op.get_attr('Tout'), 'The function given to '
                               'rt.py_function', tensors=True)
        targets = [results[k] for k in used]
        return tape.gradient(targets, sources, output_gradients=list(dys),
                             unconnected_gradients='zero')

    found = py_function(backward, inputs + [grads[k] for k in used],
                        [inputs[i].dtype for i in wanted], name='gradients/py_function')
    out = [None] * n
    for i, g in zip(wanted, found):  # each of its input's shape (known or not)
        out[i] = reshape(g, static_or_dynamic_shape(inputs[i]))
    return out


not_differentiable(py_func.PY_FUNC, py_func.PY_FUNC_STATELESS)
