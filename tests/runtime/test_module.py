"""rt.Module: variables, trainable variables and submodules found by walking attributes."""
import pytest

import runtime as rt


class Dense(rt.Module):
    def __init__(self, n, name=None):
        super().__init__(name=name)
        self.w = rt.Variable(rt.ones([n, n]), name='w')
        self.b = rt.Variable(rt.zeros([n]), name='b', trainable=False)


class Stack(rt.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, name='first'), Dense(2, name='second')]
        self.by_name = {'shared': self.layers[0]}  # the same module twice: counted once
        self.scale = rt.Variable(1.0, name='scale')


def test_variables_and_submodules_are_found_through_attributes_lists_and_dicts():
    model = Stack()
    assert model.name == 'stack'
    assert [m.name for m in model.submodules] == ['first', 'second']
    first, second = model.layers
    # TensorFlow's order (checked against tf.Module): the module's own variables by attribute
    # name, then each submodule's (theirs by attribute name too)
    assert [id(v) for v in model.variables] == [id(v) for v in (
        model.scale, first.b, first.w, second.b, second.w)]
    assert [id(v) for v in model.trainable_variables] == [id(v) for v in (
        model.scale, first.w, second.w)]


def test_name_scope_names_graph_ops():
    layer = Dense(2, name='dense')
    g = rt.Graph()
    with g.as_default():
        with layer.name_scope:
            t = rt.constant(1.0, name='c')
    assert t.op.name == 'dense/c'


def test_a_bad_module_name_is_refused():
    with pytest.raises(ValueError, match='not a valid module name'):
        rt.Module(name='has space')


def test_variables_made_under_the_module_name_scope_carry_its_name():
    class Scaled(rt.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            with self.name_scope:
                self.w = rt.Variable(2.0, name='w')

    layer = Scaled(name='scaled')
    assert layer.w.name == 'scaled/w:0'
    assert layer.name_scope is layer.name_scope and layer.name_scope.name == 'scaled/'
    with rt.name_scope('model'):
        inner = Scaled(name='inner')
    assert inner.w.name == 'model/inner/w:0'
