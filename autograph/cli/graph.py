"""`autograph graph FILE.py --function NAME --signature SPEC [--output OUT.svg|.dot|.html]`.

Imports FILE.py (its top level runs, as `python FILE.py` would run it, but not its
`if __name__ == '__main__':` block), traces NAME with `ag.function` for the signature and writes
the graph's picture: DOT text, SVG (through Graphviz's `dot`), or a self-contained HTML page with
the SVG and a table of every op. Without --output the DOT text goes to stdout.

The signature grammar (docs/saving.md):

    signature := spec ("," spec)*            one spec per parameter, in order
    spec      := [name ":"] dtype "[" dims "]"
    dims      := "" | dim ("," dim)*         "[]" is a scalar
    dim       := integer | "None" | "?"      None and ? are unknown sizes

for example `"float32[None,3], int32[]"` or `"x: float32[2, 2]"`.
"""
import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys

_SPEC = re.compile(r'^\s*(?:(?P<name>[A-Za-z_]\w*)\s*:\s*)?(?P<dtype>[A-Za-z]\w*)\s*'
                   r'\[(?P<dims>[^\]]*)\]\s*$')


class PictureError(Exception):
    """A problem with the command's input, reported as one line."""


def parse_signature(text):
    """[(name or None, dtype name, [dims])] for a signature string (see the module doc)."""
    # deferred: start-up cost (the CLI's other commands never load the runtime)
    from runtime.core import dtypes
    specs = []
    for part in _split(text):
        m = _SPEC.match(part)
        if m is None:
            raise PictureError(f'--signature: cannot read {part.strip()!r}; write each '
                               f'parameter as dtype[dims], e.g. "float32[None,3], int32[]".')
        try:
            dtype = dtypes.as_dtype(m.group('dtype'))
        except (TypeError, ValueError, KeyError):
            raise PictureError(f'--signature: unknown dtype {m.group("dtype")!r} in '
                               f'{part.strip()!r}.') from None
        dims = []
        for d in (x.strip() for x in m.group('dims').split(',')) if m.group('dims').strip() \
                else ():
            if d in ('None', '?', '-1'):
                dims.append(None)
            elif d.isdigit():
                dims.append(int(d))
            else:
                raise PictureError(f'--signature: {d!r} in {part.strip()!r} is not a size; use '
                                   f'an integer, None or ?.')
        specs.append((m.group('name'), dtype, dims))
    if not specs:
        raise PictureError('--signature is empty; give one spec per parameter.')
    return specs


def _split(text):
    """Split at commas outside brackets."""
    parts, depth, current = [], 0, ''
    for ch in text:
        if ch == '[':
            depth += 1
        elif ch == ']':
            depth -= 1
        if ch == ',' and depth == 0:
            parts.append(current)
            current = ''
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return parts


def load_function(path, name):
    """The function (or ag.Function) `name` (`Class.method` is not supported) from FILE."""
    if not os.path.isfile(path):
        raise PictureError(f'{path}: no such file.')
    module_name = '_autograph_graph_' + re.sub(r'\W', '_', os.path.splitext(
        os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    fn = getattr(module, name, None)
    if fn is None or not callable(fn):
        found = sorted(k for k, v in vars(module).items()
                       if callable(v) and getattr(v, '__module__', None) == module_name)
        raise PictureError(f'{path}: no function named {name!r} (found: '
                           f'{", ".join(found) or "none"}).')
    return fn


def trace(fn, specs):
    """The ConcreteFunction of `fn` for `specs`."""
    # deferred: start-up cost (tracing loads the runtime; the CLI's other commands never do)
    import autograph as ag
    from runtime.core.tensor_spec import TensorSpec  # deferred: start-up cost (as above)
    function = fn if isinstance(fn, ag.Function) else ag.function(fn)
    tensor_specs = [TensorSpec(dims, dtype, name) for name, dtype, dims in specs]
    if function.input_signature is not None:
        return function.get_concrete_function()
    return function.get_concrete_function(*tensor_specs)


def render_svg(dot_text):
    """SVG text from DOT through Graphviz's `dot`; PictureError when it is not installed."""
    dot = shutil.which('dot')
    if dot is None:
        raise PictureError("Graphviz's `dot` program is not installed, so no SVG can be drawn. "
                           "Install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: "
                           "brew install graphviz) or write --output OUT.dot.")
    done = subprocess.run([dot, '-Tsvg'], input=dot_text.encode('utf-8'), capture_output=True,
                          timeout=120)
    if done.returncode != 0:
        raise PictureError(f'dot failed: {done.stderr.decode("utf-8", "replace").strip()}')
    svg = done.stdout.decode('utf-8')
    return svg[svg.index('<svg'):]  # without the XML prologue, to embed in HTML


def html_page(title, svg, infos):
    """A self-contained page: the picture, then a table of every op (click a row or a node)."""
    rows = []
    for info in infos:
        attrs = '<br>'.join(f'<b>{html.escape(k)}</b>: {html.escape(v)}'
                            for k, v in info.attrs.items())
        rows.append(
            f'<tr id="op-{info.node_id}" data-node="{info.node_id}">'
            f'<td>{html.escape(info.scope + info.name)}</td><td>{html.escape(info.type)}</td>'
            f'<td>{html.escape(", ".join(info.outputs))}</td>'
            f'<td>{html.escape(", ".join(info.inputs))}</td><td>{attrs}</td>'
            f'<td>{html.escape(info.origin)}</td></tr>')
    return _PAGE.format(title=html.escape(title), svg=svg, count=len(infos),
                        rows='\n'.join(rows))


_PAGE = '''<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 1em; }}
#picture {{ overflow: auto; border: 1px solid #ccc; max-height: 70vh; }}
table {{ border-collapse: collapse; margin-top: 1em; font-size: 13px; }}
td, th {{ border: 1px solid #ddd; padding: 3px 6px; vertical-align: top; text-align: left; }}
tr.selected {{ background: #fff3cd; }}
g.node.selected polygon, g.node.selected path {{ stroke: #d63384; stroke-width: 3; }}
</style></head>
<body>
<h1>{title}</h1>
<div id="picture">{svg}</div>
<h2>Ops (<span id="op-count">{count}</span>)</h2>
<table id="ops"><thead><tr><th>name</th><th>type</th><th>outputs</th><th>inputs</th>
<th>attrs</th><th>defined at</th></tr></thead>
<tbody>
{rows}
</tbody></table>
<script>
function select(id) {{
  document.querySelectorAll('.selected').forEach(e => e.classList.remove('selected'));
  const row = document.getElementById('op-' + id);
  if (row) {{ row.classList.add('selected'); row.scrollIntoView({{block: 'nearest'}}); }}
  document.querySelectorAll('g.node').forEach(g => {{
    const t = g.querySelector('title');
    if (t && t.textContent === id) g.classList.add('selected');
  }});
}}
document.querySelectorAll('g.node').forEach(g => {{
  g.style.cursor = 'pointer';
  g.addEventListener('click', () => select(g.querySelector('title').textContent));
}});
document.querySelectorAll('#ops tbody tr').forEach(
  r => r.addEventListener('click', () => select(r.dataset.node)));
document.body.dataset.ready = String(document.querySelectorAll('g.node').length);
</script>
</body></html>
'''


def write_picture(concrete, output):
    """Write the picture of `concrete`'s graph to `output` (.dot, .svg or .html), or return the
    DOT text when `output` is None."""
    # deferred: start-up cost (it loads the runtime)
    from runtime.graph import dot as graph_picture
    dot_text, infos = graph_picture.picture(concrete.graph)
    if output is None:
        return dot_text
    extension = os.path.splitext(output)[1].lower()
    if extension == '.dot':
        content = dot_text
    elif extension == '.svg':
        content = render_svg(dot_text)
    elif extension in ('.html', '.htm'):
        content = html_page(concrete.graph.name, render_svg(dot_text), infos)
    else:
        raise PictureError(f'--output {output}: the picture is written as .dot, .svg or .html.')
    with open(output, 'w', encoding='utf-8') as f:
        f.write(content)
    return None


def run(arguments):
    """Trace and draw; returns the exit status (errors are one line on stderr)."""
    try:
        fn = load_function(arguments.file, arguments.function)
        specs = parse_signature(arguments.signature) if arguments.signature.strip() else []
        concrete = trace(fn, specs)
        text = write_picture(concrete, arguments.output)
    except PictureError as e:
        print(f'autograph graph: error: {e}', file=sys.stderr)
        return 1
    except (TypeError, ValueError) as e:
        print(f'autograph graph: error: cannot trace {arguments.function} for '
              f'{arguments.signature!r}: {e}', file=sys.stderr)
        return 1
    if text is not None:
        sys.stdout.write(text)
    return 0
