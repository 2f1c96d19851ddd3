"""runtime: tensors, ops, eager execution, graphs and the executor, on numpy.

`import runtime as rt`. The public names are listed in docs/runtime.md.
"""
# ---- the namespaces: the math-like surface (rt.math, rt.nn, rt.linalg, rt.strings,
# more rt.debugging), rt.train (checkpoints), rt.summary, rt.data; one line
from runtime import (
    data,
    debugging,
    linalg,
    math,
    nn,
    optimizers,
    random,
    strings,
    summary,
    train,
    version,
)
from runtime.control_flow import cond, switch_case, while_loop

# ---- the array, structural and functional surface -----------------------------------------
from runtime.core import config, dtypes, errors, nest
from runtime.core.context import executing_eagerly, inside_function, name_scope
from runtime.core.dtypes import (
    DType,
    as_dtype,
    bool,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    string,
    uint8,
    uint16,
    uint32,
    uint64,
)
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.core.tensor_spec import TensorSpec
from runtime.functional import foldl, foldr, map_fn, scan, vectorized_map
from runtime.gradients import GradientTape, UnconnectedGradients
from runtime.graph.graph import Graph, Operation, get_default_graph
from runtime.graph.scopes import control_dependencies, group, init_scope, no_op
from runtime.module import Module
from runtime.ops import control as _control
from runtime.ops import list_ops as _list_ops
from runtime.ops import operators as _operators  # noqa: F401 - registers ops
from runtime.ops.array import cast, identity, placeholder, stop_gradient
from runtime.ops.compare import (
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    not_equal,
    where,
)
from runtime.ops.convert import constant, convert_to_tensor, stack
from runtime.ops.creation import eye, fill, ones, ones_like, range, zeros, zeros_like
from runtime.ops.elementwise import acos, add_n, asin, atan, cosh, sinh, tan, truediv
from runtime.ops.indexing import boolean_mask, gather_nd, scatter_nd, tensor_scatter_nd_update
from runtime.ops.io import print
from runtime.ops.linalg import clip_by_norm, einsum, norm, tensordot
from runtime.ops.manipulation import (
    linspace,
    meshgrid,
    newaxis,
    one_hot,
    pad,
    repeat,
    reverse,
    slice,
    split,
    tile,
    unstack,
)
from runtime.ops.math import (
    abs,
    add,
    ceil,
    clip_by_value,
    cos,
    divide,
    exp,
    floor,
    floordiv,
    log,
    matmul,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    pow,
    relu,
    round,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    subtract,
    tanh,
)
from runtime.ops.nn import clip_by_global_norm
from runtime.ops.py_func import numpy_function, py_function
from runtime.ops.reduce import (
    argmax,
    argmin,
    reduce_all,
    reduce_any,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from runtime.ops.scan import argsort, cumsum, sort
from runtime.ops.shaping import (
    broadcast_to,
    concat,
    expand_dims,
    rank,
    reshape,
    shape,
    size,
    squeeze,
    transpose,
)
from runtime.ops.slicing import gather
from runtime.ops.stats import reduce_logsumexp
from runtime.tensor_array import TensorArray
from runtime.variables import Variable

# ---- end of the math-like half
# isort: split
# ---- more of the surface as TensorFlow's guides use it: the version, custom gradients,
# device scopes, the other tensor scatters, rt.image, rt.io (rt.linalg, rt.random and rt.config
# hold the rest)
from runtime import bitwise, experimental, image, io, signal
from runtime.core.devices import device
from runtime.custom_gradient import custom_gradient
from runtime.ops.array_more import (
    ensure_shape,
    histogram_fixed_width,
    reverse_sequence,
    roll,
    searchsorted,
    timestamp,
    truncatediv,
    truncatemod,
    unique,
    unique_with_counts,
    unravel_index,
)
from runtime.ops.bitwise import complex
from runtime.ops.indexing import (
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
)
from runtime.structural import (
    broadcast_dynamic_shape,
    broadcast_static_shape,
    case,
    get_current_name_scope,
    get_logger,
    get_static_value,
    identity_n,
    is_symbolic_tensor,
    is_tensor,
    realdiv,
    saturate_cast,
    scalar_mul,
    sequence_mask,
    shape_n,
    tuple,
)

__version__ = '0.1.0'  # the project's version (pyproject.toml); a test keeps them equal
# ---- end of the guides' names

# isort: split
# ---- TensorFlow's further top-level names: initializers, type specs, symbolic gradients,
# devices, more array ops
from runtime.core.devices import DeviceSpec
from runtime.core.tensor_spec import TypeSpec
from runtime.critical_section import CriticalSection
from runtime.gradients.symbolic import (  # `tf.gradients` is autograph_rt's: here the package
    AggregationMethod,
    RegisterGradient,
    grad_pass_through,
    hessians,
    no_gradient,
    recompute_grad,
)
from runtime.graph.import_into import import_graph_def
from runtime.initializers import (
    constant_initializer,
    ones_initializer,
    random_normal_initializer,
    random_uniform_initializer,
    zeros_initializer,
)
from runtime.ops.array_extra import (
    bitcast,
    dynamic_partition,
    dynamic_stitch,
    histogram_fixed_width_bins,
    parallel_stack,
    strided_slice,
)
from runtime.ops.conv_more import (
    conv,
    conv2d_backprop_filter_v2,
    conv2d_backprop_input_v2,
    extract_volume_patches,
)
from runtime.ops.fingerprint import fingerprint
from runtime.ops.index_shuffle import random_index_shuffle
from runtime.ops.op_wrappers import fftnd, ifftnd, irfftnd, rfftnd
from runtime.ops.space_batch import (
    batch_to_space,
    required_space_to_batch_paddings,
    space_to_batch,
    space_to_batch_nd,
)
from runtime.tensor_protos import make_ndarray, make_tensor_proto
from runtime.type_specs import NoneTensorSpec, OptionalSpec, TensorArraySpec, type_spec_from_value

# ---- end of the further top-level names


# isort: split
# ---- the public surface: keep this block last ---------------------------------------------------
# `__all__` is every name imported above that does not start with `_`, except the implementation
# modules Python binds on the package when their submodules load (runtime.core, runtime.ops,
# runtime.executor, ...); of the modules, only the namespaces users reach for are public. A new
# public name needs no edit here; a new namespace module goes in _NAMESPACES.
from types import ModuleType as _ModuleType

_NAMESPACES = frozenset({'audio', 'bitwise', 'config', 'data', 'debugging', 'dtypes', 'errors',
                         'experimental', 'image', 'io', 'linalg', 'math', 'nest', 'nn',
                         'optimizers', 'random', 'signal', 'strings', 'summary', 'train',
                         'version'})
__all__ = sorted(name for name, value in globals().items()
                 if not name.startswith('_') and (name in _NAMESPACES or
                                                  not isinstance(value, _ModuleType)))


def __dir__():
    """Only the public names (`dir(rt)`), as `dir(tf)` lists no implementation modules."""
    return list(__all__)
