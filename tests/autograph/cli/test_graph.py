"""Pictures of graphs: graph.to_dot() and `autograph graph`."""
import os
import re
import shutil
import subprocess

import pytest

import autograph as ag
import runtime as rt
from autograph import cli
from autograph.cli import graph as graph_picture

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
RELU = os.path.join(ROOT, 'examples', 'relu.py')


def simple_relu(x):
    if rt.greater(x, 0):
        return x
    else:
        return 0


def nested(n, x):
    total = rt.constant(0.0)
    i = rt.constant(0)
    while i < n:
        if x > 0.0:
            total += x
        else:
            total -= x
        i += 1
    return total


def clusters(dot):
    return re.findall(r'subgraph (cluster_\w+) \{\n\s*label="([^"]*)"', dot)


def test_to_dot_draws_the_if_with_both_branches_as_clusters():
    graph = ag.function(simple_relu).get_concrete_function(rt.constant(1)).graph
    dot = graph.to_dot()
    assert dot.startswith('digraph') and dot.rstrip().endswith('}')
    labels = [label for _, label in clusters(dot)]
    assert labels[0] == 'cond (StatelessIf)'
    then_name = graph.get_operation_by_name('cond').get_attr('then_branch').name
    else_name = graph.get_operation_by_name('cond').get_attr('else_branch').name
    assert labels[1:] == [f'then_branch: {then_name}', f'else_branch: {else_name}']
    assert '"x\\nPlaceholder\\nint32[]"' in dot  # name, op type and shape on the node
    assert '[label="bool[]"]' in dot  # the edge carrying the predicate


def test_nested_control_flow_nests_clusters():
    graph = ag.function(nested).get_concrete_function(
        rt.TensorSpec([], rt.int32), rt.TensorSpec([], rt.float32)).graph
    dot = graph.to_dot()
    labels = [label for _, label in clusters(dot)]
    assert labels[0].endswith('(StatelessWhile)') or labels[0].endswith('(While)')
    assert any(label.startswith('body: ') for label in labels)
    assert any(label.endswith('(StatelessIf)') for label in labels)
    # the If cluster opens inside the body cluster: it is indented deeper
    body_indent = re.search(r'\n(\s*)subgraph cluster_\w+ \{\n\s*label="body: ', dot).group(1)
    if_indent = re.search(r'\n(\s*)subgraph cluster_\w+ \{\n\s*label="[^"]*\(StatelessIf\)',
                          dot).group(1)
    assert len(if_indent) > len(body_indent)
    assert "float32[]" in dot and "int32[]" in dot


def test_plain_graphs_draw_too_with_control_edges_dashed():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [None, 3], name='x')
        first = rt.print(x)
        with g.control_dependencies([first]):
            rt.identity(x, name='after')
    dot = g.to_dot()
    assert 'float32[?,3]' in dot and 'style=dashed' in dot


def test_signature_grammar():
    specs = graph_picture.parse_signature('float32[None,3], int32[], x: int64[2, ?]')
    assert [(n, d.name, dims) for n, d, dims in specs] == [
        (None, 'float32', [None, 3]), (None, 'int32', []), ('x', 'int64', [2, None])]
    with pytest.raises(graph_picture.PictureError, match='unknown dtype'):
        graph_picture.parse_signature('floaty[3]')
    with pytest.raises(graph_picture.PictureError, match='not a size'):
        graph_picture.parse_signature('float32[3.5]')
    with pytest.raises(graph_picture.PictureError, match=r'dtype\[dims\]'):
        graph_picture.parse_signature('float32')


def test_cli_writes_dot_text(tmp_path, capsys):
    out = tmp_path / 'relu.dot'
    assert cli.main(['graph', RELU, '--function', 'simple_relu', '--signature', 'int32[]',
                     '--output', str(out)]) == 0
    assert 'cond (StatelessIf)' in out.read_text()
    assert cli.main(['graph', RELU, '--function', 'simple_relu', '--signature', 'int32[]']) == 0
    assert 'digraph' in capsys.readouterr().out


def test_cli_errors_are_one_line(capsys):
    assert cli.main(['graph', RELU, '--function', 'nope', '--signature', 'int32[]']) == 1
    assert "no function named 'nope' (found: " in capsys.readouterr().err
    assert cli.main(['graph', RELU, '--function', 'simple_relu', '--signature',
                     'int32[], int32[]']) == 1
    assert 'cannot trace simple_relu' in capsys.readouterr().err


def test_svg_without_graphviz_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv('PATH', str(tmp_path))
    assert cli.main(['graph', RELU, '--function', 'simple_relu', '--signature', 'int32[]',
                     '--output', str(tmp_path / 'relu.svg')]) == 1
    err = capsys.readouterr().err
    assert "Graphviz's `dot` program is not installed" in err and 'apt-get install graphviz' in err


needs_dot = pytest.mark.skipif(shutil.which('dot') is None, reason='Graphviz is not installed')


@needs_dot
def test_cli_writes_svg(tmp_path):
    out = tmp_path / 'relu.svg'
    assert cli.main(['graph', RELU, '--function', 'simple_relu', '--signature', 'int32[]',
                     '--output', str(out)]) == 0
    svg = out.read_text()
    assert svg.startswith('<svg') and 'StatelessIf' in svg and 'then_branch' in svg


def _browser():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        found = shutil.which(name)
        if found:
            return found
    return None


@needs_dot
@pytest.mark.skipif(_browser() is None, reason='no headless browser installed')
def test_the_html_page_renders_in_a_headless_browser(tmp_path):
    page = tmp_path / 'relu.html'
    assert cli.main(['graph', RELU, '--function', 'simple_relu', '--signature', 'int32[]',
                     '--output', str(page)]) == 0
    text = page.read_text()
    assert 'http://' not in text.split('<svg', 1)[0] and '<script src' not in text  # no fetches
    assert 'relu.py:6' in text  # ops point at the user's line, not the generated code
    done = subprocess.run(
        [_browser(), '--headless', '--no-sandbox', '--disable-gpu',
         '--disable-background-networking', '--disable-dev-shm-usage', '--no-first-run',
         f'--user-data-dir={tmp_path / "profile"}', '--dump-dom', page.as_uri()],
        capture_output=True, text=True, timeout=60)
    dom = done.stdout
    rows = re.findall(r'<tr id="op-(n\d+)"', dom)
    assert len(rows) == 16  # every op of the graph and of both branches
    # the page's script ran and found one SVG node per op, each matching a table row
    assert f'data-ready="{len(rows)}"' in dom
    titles = re.findall(r'<g id="node\d+" class="node[^"]*"[^>]*>\s*<title>(n\d+)</title>', dom)
    assert sorted(titles) == sorted(rows)
    assert 'StatelessIf' in dom and 'then_branch: cond_true' in dom
