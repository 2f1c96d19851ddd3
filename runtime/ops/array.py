"""`cast`, `identity`, `stop_gradient` and `placeholder`: the ops that pass a tensor on (op
`Cast`, `Identity`, `StopGradient`) or stand for one (`Placeholder`).

The rest of TensorFlow's array_ops is by theme: creating tensors (runtime.ops.creation),
shapes and reshaping (runtime.ops.shaping), gather and slicing (runtime.ops.slicing), tiling,
padding and splitting (runtime.ops.manipulation), coordinate indexing (runtime.ops.indexing).
"""
from runtime.core import context, dtypes
from runtime.core.shapes import as_shape
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply, build
from runtime.ops.infer import passes_through, same_as_input
from runtime.ops.registry import ELEMENTWISE, IDENTITY, PLACEHOLDER, register


def _cast_kernel(x, DstT):
    if x.dtype.kind == 'c' and DstT.np_dtype.kind != 'c':
        x = x.real  # TensorFlow's Cast keeps the real part (numpy warns about it)
    return x.astype(DstT.np_dtype)


CAST = register('Cast', _cast_kernel,
                lambda inputs, attrs: [(attrs['DstT'], inputs[0].shape)],
                type_attrs=(('SrcT', 0),), defaults={'Truncate': False},
                elementwise=ELEMENTWISE, partial=passes_through)


def cast(x, dtype, name=None):
    """`x` converted to `dtype` (floats to ints truncate toward zero)."""
    dtype = dtypes.as_dtype(dtype)
    x = convert_to_tensor(x)
    if x.dtype is dtype:
        return x
    return apply(CAST, [x], {'DstT': dtype}, name=name)


def placeholder(dtype, shape=None, name=None):
    """A graph input to feed when the graph runs. Only inside `with graph.as_default():`."""
    graph = context.current_graph()
    if graph is None:
        raise RuntimeError('rt.placeholder() needs a graph: use it inside '
                           '`with rt.Graph().as_default():`.')
    return build(graph, PLACEHOLDER, [], {'dtype': dtypes.as_dtype(dtype),
                                          'shape': as_shape(shape)}, name or 'Placeholder')


def identity(input, name=None):
    return apply(IDENTITY, [convert_to_tensor(input)], name=name)


STOP_GRADIENT = register('StopGradient', lambda input: input, same_as_input, inputs=('input',),
                         outputs=('output',))


def stop_gradient(input, name=None):
    """`input` unchanged, but gradients do not flow through it (op `StopGradient`)."""
    return apply(STOP_GRADIENT, [convert_to_tensor(input)], name=name)
