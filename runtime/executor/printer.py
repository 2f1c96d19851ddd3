"""`str(program)`: a Program in a jaxpr-like text form, one node per line, named after the ops.

    program graph(x:float32[2])
      AddV2:float32[2] = AddV2(x, Const)
      return AddV2
"""
import numpy as np

from runtime.ops.registry import CONST


def format_program(program):
    return '\n'.join(_lines(program, ''))


def _lines(program, pad):
    names = {}
    for node in program.params:
        names[node.outputs[0]] = node.name
    lines = [f'{pad}program {program.name}'
             f'({", ".join(_spec(node.name, node.outputs[0]) for node in program.params)})']
    for node in program.nodes:
        if node in program.params:
            continue
        outs = [f'{node.name}:{v.index}' if len(node.outputs) > 1 else node.name
                for v in node.outputs]
        names.update(zip(node.outputs, outs))
        args = ', '.join(_name(names, v) for v in node.inputs)
        if node.opdef is CONST:
            args = np.array2string(np.asarray(node.attrs['value'], dtype=object), threshold=6)
        head = ', '.join(_spec(o, v) for o, v in zip(outs, node.outputs)) or '_'
        lines.append(f'{pad}  {head} = {node.type}({args})')
        for branch in node.branches:
            lines.extend(_lines(branch, pad + '    '))
    lines.append(f'{pad}  return ' + ', '.join(_name(names, v) for v in program.outputs))
    return lines


def _name(names, value):
    return names.get(value, f'{value.node.name}:{value.index}')


def _spec(name, value):
    shape = value.shape
    return f'{name}:{value.dtype.name}{list(shape) if shape.rank is not None else "[?]"}'
