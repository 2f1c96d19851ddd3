"""The IR: values know their users, and one call redirects every use."""
import runtime as rt
from runtime.executor import optimized_program
from runtime.executor.codegen import python_code
from runtime.executor.emit import Namespace
from runtime.executor.ir import lower


def test_values_know_their_users_and_replace_all_uses_with_redirects_them():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [3], name='x')
        doubled = x * 2.0
        out = doubled + doubled
    program = lower(g, [x], [out, doubled])
    mul = next(node for node in program.nodes if node.type == 'Mul')
    add = next(node for node in program.nodes if node.type == 'AddV2')
    assert list(mul.outputs[0].users) == [add]
    param = program.params[0].outputs[0]
    program.replace_all_uses_with(mul.outputs[0], param)
    assert add.inputs == [param, param]
    assert program.outputs == [add.outputs[0], param]
    assert not mul.outputs[0].users and add in param.users


def test_generated_code_names_its_locals_after_the_ops():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [], name='x')
        out = rt.cond(x > 0, lambda: x * 3, lambda: -x)
    code = python_code(optimized_program(g, [x], [out]))
    assert code.source.startswith('def run(x):')
    assert 'greater = x > greater_y' in code.source
    assert 'if greater:' in code.source
    assert code.globals['greater_y'] == 0
    assert {node.type for node in code.line_nodes.values()} >= {'Greater', 'StatelessIf'}


def test_namespace_makes_legal_unique_names():
    names = Namespace()
    assert [names.create_name(n) for n in ('while', 'while/Greater', 'Greater', 'Greater/y',
                                           '3d', 'GatherV2')] == \
        ['while_1', 'greater', 'greater_1', 'greater_y', '_3d', 'gather_v2']
    assert names.create_name('GatherV2', snake_case=False) == 'GatherV2'
