"""End to end: the real `tensorboard --logdir` server shows what rt.summary writes. It serves
our scalars and our graph over its HTTP data API, and headless Chromium renders the Scalars and
Graphs dashboards (screenshots; AUTOGRAPH_RT_SCREENSHOTS=docs/images keeps them for the docs).
Skips when tensorboard or chromium is missing; .ci/run installs both."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import numpy as np
import pytest

import autograph as ag
import runtime as rt

pytest.importorskip('tensorboard', reason='the tensorboard package is not installed '
                                          '(pip install autograph-rt[tensorboard])')
CHROMIUM = shutil.which('chromium') or shutil.which('chromium-browser')
CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
                  '--no-first-run', '--disable-background-networking',
                  '--disable-component-update', '--disable-sync', '--hide-scrollbars',
                  '--window-size=1400,900', '--virtual-time-budget=20000']


def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read()


def _log_a_training_run(logdir):
    """Ten steps of a traced train step logging its loss, and the step's graph."""
    writer = rt.summary.create_file_writer(os.path.join(logdir, 'train'))
    w = rt.Variable([1.0, -2.0, 3.0])
    step = rt.Variable(0, dtype=rt.int64)

    @ag.function
    def train_step(target):
        with rt.GradientTape() as tape:
            loss = rt.reduce_mean(rt.square(w - target))
        w.assign_sub(0.1 * tape.gradient(loss, w))
        step.assign_add(1)
        rt.summary.scalar('loss', loss, step=step)
        return loss

    losses = []
    with writer.as_default():
        rt.summary.trace_on(graph=True)
        for i in range(10):
            losses.append(float(train_step(rt.constant([0.0, 0.0, 0.0]))))
            if i == 0:
                rt.summary.trace_export('train_step', step=0)
    writer.close()
    return losses


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    logdir = str(tmp_path_factory.mktemp('tensorboard_logs'))
    losses = _log_a_training_run(logdir)
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, '-m', 'tensorboard.main', '--logdir', logdir, '--host', '127.0.0.1',
         '--port', str(port), '--reload_interval', '1'],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f'http://127.0.0.1:{port}'
    try:
        deadline = time.time() + 120
        while True:
            try:
                if 'train' in json.loads(_get(f'{base}/data/runs')):
                    break
            except OSError:
                pass
            if process.poll() is not None or time.time() > deadline:
                output = process.stdout.read() if process.poll() is not None else ''
                pytest.fail(f'tensorboard did not serve the run: {output[-2000:]}')
            time.sleep(0.5)
        yield base, losses
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_scalars_route_returns_our_values(server):
    base, losses = server
    deadline = time.time() + 60
    while True:
        rows = json.loads(_get(f'{base}/data/plugin/scalars/scalars?run=train&tag=loss'))
        if len(rows) == 10 or time.time() > deadline:
            break
        time.sleep(0.5)
    assert [step for _, step, _ in rows] == list(range(1, 11))
    np.testing.assert_allclose([value for _, _, value in rows], losses, rtol=1e-6)
    tags = json.loads(_get(f'{base}/data/plugin/scalars/tags'))
    assert 'loss' in tags['train']


def test_the_graphs_route_returns_our_graph(server):
    base, _ = server
    runs = json.loads(_get(f'{base}/data/plugin/graphs/info'))
    assert runs['train']['run_graph'] is True
    graph = _get(f'{base}/data/plugin/graphs/graph?run=train').decode()
    for op in ('ReadVariableOp', 'AssignSubVariableOp', 'WriteSummary', 'Mean'):
        assert f'op: "{op}"' in graph, op


def _screenshot(base, fragment, name):
    out_dir = os.environ.get('AUTOGRAPH_RT_SCREENSHOTS') or tempfile.mkdtemp()
    path = os.path.join(out_dir, name)
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f'--user-data-dir={profile}',
                               f'--screenshot={path}', f'{base}/{fragment}'],
                              capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    with open(path, 'rb') as f:
        data = f.read()
    assert data.startswith(b'\x89PNG')
    image = pytest.importorskip('PIL.Image')
    pixels = np.asarray(image.open(path).convert('L'), dtype=np.float64)
    assert pixels.shape == (900, 1400)
    return pixels


@pytest.mark.skipif(CHROMIUM is None, reason='chromium is not installed (apt-get install '
                                              'chromium)')
def test_chromium_renders_the_scalars_and_graphs_dashboards(server):
    base, _ = server
    for fragment, name in (('#scalars', 'tensorboard_scalars.png'),
                           ('#graphs&run=train', 'tensorboard_graphs.png')):
        pixels = _screenshot(base, fragment, name)
        assert pixels.std() > 10, f'{name} is blank'  # a drawn page, not an empty one
