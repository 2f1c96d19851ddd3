"""Write tests/runtime/fixtures/tf_checkpoint with real TensorFlow (run by its Python):

    /work/tfenv/bin/python tools/make_tf_checkpoint.py tests/runtime/fixtures/tf_checkpoint

A tf.train.Checkpoint of a Module (a submodule, a list holding a non-trainable variable) and a
Keras Adam after two steps, saved twice (ckpt-2 is the latest; ckpt-1 is then deleted), and
values.json with what it holds, for tests/runtime/test_checkpoint.py.
"""
import json
import os
import sys

import keras
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable([[1., 2.], [3., 4.]], name='w')
        self.b = tf.Variable([0.5, -0.5], name='b')


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = Dense(name='dense')
        self.extra = [tf.Variable(7, name='count', trainable=False)]


def main(out):
    model, opt = Model(), keras.optimizers.Adam(0.01)
    variables = [model.dense.w, model.dense.b]
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul([[1., 1.]], model.dense.w) + model.dense.b) ** 2
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    first = ckpt.save(os.path.join(out, 'ckpt'))
    model.extra[0].assign(8)
    path = ckpt.save(os.path.join(out, 'ckpt'))
    for suffix in ('.index', '.data-00000-of-00001'):
        os.remove(first + suffix)
    values = {'w': model.dense.w.numpy().tolist(), 'b': model.dense.b.numpy().tolist(),
              'count': int(model.extra[0].numpy()), 'iterations': int(opt.iterations.numpy()),
              'learning_rate': float(opt.learning_rate.numpy()),
              'm': [v.numpy().tolist() for v in opt._momentums],
              'v': [v.numpy().tolist() for v in opt._velocities],
              'save_counter': int(ckpt.save_counter.numpy()), 'path': os.path.basename(path)}
    with open(os.path.join(out, 'values.json'), 'w') as f:
        json.dump(values, f, indent=1)


if __name__ == '__main__':
    main(sys.argv[1])
