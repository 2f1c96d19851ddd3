"""Custom gradients in a SavedModel: `ag.saved_model.SaveOptions(experimental_custom_gradients=
True)` (the default, as in TensorFlow) saves the gradient function of each `rt.custom_gradient`
a saved graph uses, and loading gives it back.

An `rt.custom_gradient` is an IdentityN op whose `_gradient_op_type` attr names its gradient
(`CustomGradient-3`). Saving traces that gradient on placeholders for the op's output gradients
into a function of its own (`__inference_internal_grad_fn_N`) in the GraphDef's library, listed
in the library's `registered_gradients` as TensorFlow writes it (so `tf.saved_model.load` uses it
too). The object graph's JSON notes which inputs its outputs are the gradients of. A gradient
function that uses tensors or variables other than its arguments (a tensor of the forward pass)
cannot be saved alone: it is left out, as with the option False, and the loaded op then has no
gradient (TensorFlow's LookupError when a gradient reaches it).
"""
from dataclasses import dataclass, field

from autograph.saved_model.object_graph import structured_value
from runtime.core.tensor_spec import TensorSpec
from runtime.graph.graph import FuncGraph, uid
from runtime.graph.graph_def import function_def
from runtime.graph.importer import call_function
from runtime.ops.identity_n import CustomGradient, custom_gradient_attr

GRADIENT_ATTR = '_gradient_op_type'


@dataclass(frozen=True)
class SaveOptions:
    """How `ag.saved_model.save` saves: TensorFlow's `tf.saved_model.SaveOptions`, its fields in
    its order. `experimental_custom_gradients` saves the gradient functions of the
    `rt.custom_gradient`s the saved functions use (True, TensorFlow's default). The device,
    debug-stripping and op-namespace options are met as they are (one CPU, no debug info
    written, no custom op namespaces); the options that would change what is written and are
    not implemented raise NotImplementedError when set."""
    namespace_whitelist: object = None
    save_debug_info: bool = False
    function_aliases: object = None
    experimental_debug_stripper: bool = False
    experimental_io_device: object = None
    experimental_variable_policy: object = None
    experimental_custom_gradients: bool = True
    experimental_image_format: bool = False
    experimental_skip_saver: bool = False
    experimental_sharding_callback: object = None
    extra_tags: object = None

    def __post_init__(self):
        unsupported = {'save_debug_info': False, 'function_aliases': None,
                       'experimental_image_format': False, 'experimental_skip_saver': False,
                       'experimental_sharding_callback': None, 'extra_tags': None}
        for name, default in unsupported.items():
            if getattr(self, name) not in (default, None, False, {}, []):
                raise NotImplementedError(f'SaveOptions({name}=...) is not supported: SavedModels '
                                          f'are written with its default, {default!r}.')


@dataclass
class SavedGradients:
    """What saving found: FunctionDefs, the library's RegisteredGradient entries, and for the
    JSON object graph {op type: {'function': name, 'given': [the positions of the op's
    inputs its outputs are the gradients of]}}."""
    functions: list
    registered: list
    meta: dict
    concrete_functions: dict = field(default_factory=dict)  # SavedConcreteFunctions, for TF


def saved_gradients(graphs):
    """The custom gradients the ops of `graphs` (and of their If/While functions) use."""
    found = SavedGradients([], [], {})
    for graph in graphs:
        for op in _operations(graph):
            custom = op.attrs.get(GRADIENT_ATTR)
            if not isinstance(custom, CustomGradient) or repr(custom) in found.meta:
                continue
            traced = _trace(op, custom)
            if traced is None:
                continue
            fg, given = traced
            found.functions.append(function_def(fg))
            # TensorFlow's loader calls it through its signature: output gradients in, one
            # entry per op input out (None where there is no gradient)
            outputs = iter(fg.outputs)
            found.concrete_functions[fg.name] = {
                'bound_inputs': [],
                'canonicalized_input_signature': structured_value(
                    (tuple(TensorSpec(t.shape, t.dtype, f'result_grads_{i}')
                           for i, t in enumerate(fg.inputs)), {})),
                'output_signature': structured_value(
                    [next(outputs) if i in given else None for i in range(len(op.inputs))])}
            found.registered.append({'gradient_func': fg.name,
                                     'registered_op_type': repr(custom)})
            found.meta[repr(custom)] = {'function': fg.name, 'given': given}
    return found


def _operations(graph):
    yield from graph.operations
    for fg in graph.library.values():
        yield from fg.operations


def _trace(op, custom):
    """(the gradient as a FuncGraph from output gradients to the input gradients that are not
    None, the positions of those inputs), or None when it uses tensors besides its
    arguments."""
    fg = FuncGraph(f'__inference_internal_grad_fn_{uid()}')
    try:
        with fg.as_default():
            upstream = [fg.add_input(t.dtype, t.shape, 'upstream') for t in op.outputs]
            grads = list(custom.gradient(op, *upstream))
    except ValueError:  # a tensor of the forward graph, which this function cannot take
        return None
    if fg.captures:
        return None
    fg.outputs = [g for g in grads if g is not None]  # as TensorFlow's: no output for a None
    return fg, [i for i, g in enumerate(grads) if g is not None]


def restore_gradients(graph, saved, library, payloads):
    """Give the ops of a loaded function's `graph` that name a custom gradient their gradient:
    the saved function, inlined where the gradient is built, or, when it was not saved,
    TensorFlow's LookupError once a gradient reaches the op."""
    for op in _operations(graph):
        name = op.attrs.get(GRADIENT_ATTR)
        if not isinstance(name, str):
            continue
        entry = saved.get(name)
        op.attrs[GRADIENT_ATTR] = custom_gradient_attr(
            _unsaved_gradient(name) if entry is None else
            _restored_gradient(entry['function'], entry['given'], library, payloads))


def _unsaved_gradient(name):
    def gradient(op, *grads):
        raise LookupError(
            f"No gradient defined for operation'{op.name}' (op type: {op.type}): it stands for "
            f"the custom gradient {name!r}, which was not saved with it. Save with "
            f"ag.saved_model.SaveOptions(experimental_custom_gradients=True) (the default), or "
            f"insert rt.stop_gradient where no gradient is needed.")
    return gradient


def _restored_gradient(function_name, given, library, payloads):
    def gradient(op, *grads):
        outputs = call_function(library, function_name, list(grads), payloads)
        out = [None] * len(op.inputs)
        for i, g in zip(given, outputs):
            out[i] = g
        return out
    return gradient
