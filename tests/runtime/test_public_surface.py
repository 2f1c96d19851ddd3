"""`import runtime as rt`: the public names are SPEC's, and `dir(rt)` lists no implementation
module (`rt.core`, `rt.ops`, `rt.executor` ...), as `dir(tf)` lists none."""
import types

import runtime as rt

# the core surface and its top level, as a TensorFlow user reaches for them
SPEC_NAMES = '''
    bool int8 int16 int32 int64 uint8 float16 float32 float64 string DType as_dtype dtypes
    TensorShape Tensor TensorSpec constant convert_to_tensor
    add subtract multiply divide floordiv mod pow negative abs square sqrt exp log sin cos tanh
    sigmoid relu maximum minimum sign floor ceil round clip_by_value matmul cast equal not_equal
    greater greater_equal less less_equal logical_and logical_or logical_not where reduce_sum
    reduce_mean reduce_max reduce_min reduce_prod reduce_any reduce_all argmax argmin zeros ones
    fill zeros_like ones_like eye range reshape transpose concat stack expand_dims squeeze gather
    shape size rank identity random print debugging Variable TensorArray cond while_loop Graph
    Operation placeholder config errors GradientTape optimizers
    math nn linalg strings name_scope newaxis tile pad split unstack one_hot sort argsort
    linspace boolean_mask gather_nd scatter_nd tensor_scatter_nd_update einsum repeat reverse
    broadcast_to meshgrid clip_by_norm stop_gradient norm control_dependencies group no_op
    init_scope map_fn scan foldl switch_case py_function numpy_function nest Module
'''.split()
NAMESPACES = {'audio', 'bitwise', 'config', 'data', 'debugging', 'dtypes', 'errors', 'experimental',
              'image', 'io', 'linalg', 'math', 'nest', 'nn', 'optimizers', 'random', 'signal',
              'strings', 'summary', 'train', 'version'}


def test_dir_lists_the_public_names_and_every_spec_name():
    assert dir(rt) == sorted(rt.__all__)
    assert [name for name in SPEC_NAMES if name not in rt.__all__] == []
    assert all(hasattr(rt, name) for name in rt.__all__)


def test_no_implementation_module_is_public():
    modules = {name for name in dir(rt) if isinstance(getattr(rt, name), types.ModuleType)}
    assert modules <= NAMESPACES
    for internal in ('core', 'ops', 'executor', 'graph', 'gradients', 'control_flow', 'variables',
                     'tensor_array', 'module', 'functional'):
        assert internal not in dir(rt)
        assert hasattr(rt, internal)  # still importable: `runtime.core` is the package's


def test_every_public_name_imported_into_runtime_is_in_all():
    # a name imported after the surface block at the end of runtime/__init__.py would be missed
    missed = [name for name, value in vars(rt).items()
              if not name.startswith('_') and name not in rt.__all__ and
              (not isinstance(value, types.ModuleType) or name in NAMESPACES)]
    assert missed == []


def test_star_import_gives_exactly_the_public_names():
    namespace = {}
    exec('from runtime import *', namespace)
    assert sorted(k for k in namespace if k != '__builtins__') == sorted(rt.__all__)
    assert namespace['reduce_sum'] is rt.reduce_sum and namespace['math'] is rt.math
