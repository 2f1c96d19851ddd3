"""`pickle` of datasets' functions: a TracedFunction travels as its graph.

A Dataset built eagerly is a chain of DatasetValues (runtime/data/values.py), plain objects
holding numpy values, which pickle as they are. The stages that run a function (`map`,
`filter`, `flat_map`, `interleave`, `scan`, `take_while`) hold a TracedFunction, whose Python
function cannot travel; its FuncGraph can. A TracedFunction pickles as the FunctionDefs of its
graph and of the functions that graph calls (If/While branches, the functions of dataset ops
built inside it), in TensorFlow's binary FunctionDefLibrary; unpickling gives a
`ShippedFunction`, which rebuilds the graph from them (importing the library, as a GraphDef's
functions are imported) and compiles it on its first `run`. So a pipeline built once on a
client runs in another process (a Dask worker) with no Python source.

A function whose graph holds Python code (the generator of `Dataset.from_generator`) cannot
travel: pickling it raises TypeError naming the op.
"""
import threading

from runtime.executor import compile_graph
from runtime.graph.graph import FuncGraph
from runtime.graph.graph_def import function_def
from runtime.graph.importer import call_function
from runtime.graph.serialization import wire
from runtime.graph.serialization.graph_io import as_dtype, attr_from_proto, message
from runtime.ops.array import identity
from runtime.ops.registry import REGISTRY


def library_of(graph):
    """The FuncGraphs `graph` calls, at any depth, each once, `graph` first."""
    found, todo = {}, [graph]
    while todo:
        fg = todo.pop()
        if fg.name in found:
            continue
        found[fg.name] = fg
        for op in fg.operations:
            if op.type == 'GeneratorDataset':
                raise TypeError('A dataset made by Dataset.from_generator runs Python code, so '
                                'it cannot be pickled and sent to another process; build it in '
                                'the process that reads it.')
            inner = getattr(op.payload, 'graph', None)  # a dataset op's TracedFunction
            if isinstance(inner, FuncGraph):
                todo.append(inner)
        todo.extend(fg.library.values())
    return list(found.values())


def serialized_function(graph):
    """The FunctionDefLibrary bytes of `graph` and the functions it calls."""
    functions = [function_def(fg) for fg in library_of(graph)]
    return wire.encode('FunctionDefLibrary', message('FunctionDefLibrary',
                                                     {'function': functions}))


def restore_function(data, name):
    """What unpickling a TracedFunction gives: a ShippedFunction for library function `name`."""
    library = {f['signature']['name']: f
               for f in wire.decode('FunctionDefLibrary', data).get('function', [])}
    if name not in library:
        raise ValueError(f'The pickled dataset function {name!r} is not in its library.')
    return ShippedFunction(name, library, data)


class ShippedFunction:
    """A dataset function rebuilt from its FunctionDefs; `run(*values)` as TracedFunction's."""

    def __init__(self, name, library, data):
        self.name, self.library, self.data = name, library, data
        self._run = None
        self._lock = threading.Lock()

    @property
    def run(self):
        if self._run is None:
            with self._lock:
                if self._run is None:
                    self._run = self._compile()
        return self._run

    def _compile(self):
        fdef = self.library[self.name]
        signature = fdef['signature']
        arg_attrs = fdef.get('arg_attr', {})
        graph = FuncGraph(self.name)
        with graph.as_default():
            args = []
            for i, arg in enumerate(signature.get('input_arg', [])):
                shapes = arg_attrs.get(i, {}).get('attr', {}).get('_output_shapes')
                shape = attr_from_proto(shapes)[0] if shapes else None
                args.append(graph.add_input(as_dtype(arg['type']), shape, arg['name']))
            outputs = call_function(self.library, self.name, args, self.payload)
            outputs = [identity(t) for t in outputs]
        graph.inputs, graph.outputs = args, outputs
        return compile_graph(graph, args, outputs)

    def payload(self, op_type, attrs):
        """The payload of a dataset op inside the function: its own function, shipped too."""
        opdef = REGISTRY.get(op_type)
        if opdef is None or not opdef.function_attrs:
            return None
        ref = attrs.get(opdef.function_attrs[0])
        name = getattr(ref, 'name', None)
        if name is None or name not in self.library or opdef.control_flow:
            return None
        return ShippedFunction(name, self.library, self.data)

    def __reduce__(self):
        return restore_function, (self.data, self.name)
