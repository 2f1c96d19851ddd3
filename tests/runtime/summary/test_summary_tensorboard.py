"""TensorBoard's own readers show what rt.summary writes: the event accumulator and the data
provider its server uses (scalars with their steps and values, histograms, text, images), and
the graph of a traced function with its op types."""
import io

import numpy as np
import pytest

import autograph as ag
import runtime as rt

pytest.importorskip('tensorboard', reason='the tensorboard package is not installed '
                                          '(pip install autograph-rt[tensorboard])')
tb_context = pytest.importorskip('tensorboard.context')
data_provider = pytest.importorskip('tensorboard.backend.event_processing.data_provider')
ea = pytest.importorskip('tensorboard.backend.event_processing.event_accumulator')
plugin_event_multiplexer = pytest.importorskip(
    'tensorboard.backend.event_processing.plugin_event_multiplexer')
tensor_util = pytest.importorskip('tensorboard.util.tensor_util')


@pytest.fixture(scope='module')
def logdir(tmp_path_factory):
    """A run that logs what a training loop logs, from a traced step, and its graph."""
    logdir = tmp_path_factory.mktemp('logs')
    writer = rt.summary.create_file_writer(str(logdir / 'train'))
    step = rt.Variable(0, dtype=rt.int64)

    @ag.function
    def train_step(w):
        step.assign_add(1)
        loss = rt.reduce_sum(w * w)
        if loss > 1.0:
            loss = loss / 2.0
        rt.summary.scalar('loss', loss, step=step)
        rt.summary.histogram('weights', w, step=step)
        return loss

    with writer.as_default():
        rt.summary.trace_on(graph=True)
        for i in range(5):
            train_step(rt.constant([0.5 * i, 1.0, -1.0]))
            if i == 0:
                rt.summary.trace_export('train_step', step=0)
        rt.summary.text('notes', 'a *markdown* note', step=5)
        pictures = np.zeros([2, 4, 6, 3], np.float32)
        pictures[1, :, :, 0] = 1.0
        rt.summary.image('pictures', pictures, step=5)
    writer.close()
    return logdir


def _accumulator(logdir):
    acc = ea.EventAccumulator(str(logdir / 'train'),
                              size_guidance={ea.TENSORS: 0, ea.IMAGES: 0, ea.SCALARS: 0})
    return acc.Reload()


def test_the_event_accumulator_reads_scalars_histograms_text_and_images(logdir):
    acc = _accumulator(logdir)
    assert set(acc.Tags()['tensors']) == {'loss', 'weights', 'notes', 'pictures'}
    losses = acc.Tensors('loss')
    assert [e.step for e in losses] == [1, 2, 3, 4, 5]
    expected = [float(np.sum(np.square([0.5 * i, 1.0, -1.0]))) for i in range(5)]
    expected = [v / 2.0 if v > 1.0 else v for v in expected]
    np.testing.assert_allclose([tensor_util.make_ndarray(e.tensor_proto) for e in losses],
                               expected)
    assert acc.SummaryMetadata('loss').plugin_data.plugin_name == 'scalars'
    weights = tensor_util.make_ndarray(acc.Tensors('weights')[-1].tensor_proto)
    assert weights.shape == (30, 3) and weights[:, 2].sum() == 3
    assert weights[0, 0] == -1.0 and weights[-1, 1] == 2.0
    assert acc.SummaryMetadata('weights').plugin_data.plugin_name == 'histograms'
    (note,) = acc.Tensors('notes')
    assert tensor_util.make_ndarray(note.tensor_proto) == b'a *markdown* note'
    assert acc.SummaryMetadata('notes').plugin_data.plugin_name == 'text'
    (pictures,) = acc.Tensors('pictures')
    width, height, *pngs = tensor_util.make_ndarray(pictures.tensor_proto)
    assert (width, height, len(pngs)) == (b'6', b'4', 2)
    image = pytest.importorskip('PIL.Image')
    red = np.asarray(image.open(io.BytesIO(pngs[1])))
    assert red.shape == (4, 6, 3) and (red[..., 0] == 255).all() and (red[..., 1:] == 0).all()


def test_the_event_accumulator_reads_the_graph_with_its_op_types(logdir):
    graph = _accumulator(logdir).Graph()
    ops = {node.op for node in graph.node}
    assert {'Placeholder', 'AssignAddVariableOp', 'Sum', 'Greater', 'StatelessIf',
            'WriteSummary', 'ReadVariableOp'} <= ops
    library_ops = {node.op for f in graph.library.function for node in f.node_def}
    assert 'RealDiv' in library_ops


def test_the_data_provider_of_the_server_reads_them(logdir):
    multiplexer = plugin_event_multiplexer.EventMultiplexer()
    multiplexer.AddRunsFromDirectory(str(logdir))
    multiplexer.Reload()
    provider = data_provider.MultiplexerDataProvider(multiplexer, str(logdir))
    ctx = tb_context.RequestContext()
    scalars = provider.read_scalars(ctx, experiment_id='', plugin_name='scalars',
                                    downsample=1000)
    loss = scalars['train']['loss']
    assert [d.step for d in loss] == [1, 2, 3, 4, 5]
    np.testing.assert_allclose(
        [d.value for d in loss],
        [v / 2.0 if v > 1.0 else v for v in
         [float(np.sum(np.square([0.5 * i, 1.0, -1.0]))) for i in range(5)]], rtol=1e-6)
    histograms = provider.read_tensors(ctx, experiment_id='', plugin_name='histograms',
                                       downsample=1000)
    assert [d.step for d in histograms['train']['weights']] == [1, 2, 3, 4, 5]
    assert histograms['train']['weights'][0].numpy.shape == (30, 3)
    texts = provider.read_tensors(ctx, experiment_id='', plugin_name='text', downsample=10)
    assert texts['train']['notes'][0].numpy == b'a *markdown* note'
    blobs = provider.read_blob_sequences(ctx, experiment_id='', plugin_name='images',
                                         downsample=10)
    (datum,) = blobs['train']['pictures']
    assert datum.step == 5 and len(datum.values) == 4  # width, height, two PNGs
    png = provider.read_blob(ctx, blob_key=datum.values[2].blob_key)
    assert png.startswith(b'\x89PNG')
    graph_runs = provider.list_blob_sequences(ctx, experiment_id='', plugin_name='graphs')
    assert 'train' in graph_runs
