"""Write tests/runtime/fixtures/io_more.json: what TensorFlow gives for the programs of
tools/io_more_cases.py (tf.train.Example bytes, TFRecord files, file datasets,
tf.data.experimental, check numerics). Run with a Python that has tensorflow (never a project
dependency):

    /path/to/tf-venv/bin/python tools/tf_io_more_fixtures.py
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'tests', 'runtime', 'fixtures', 'io_more.json')
GIFS = os.path.join(ROOT, 'tests', 'runtime', 'fixtures', 'gif')


def write_gifs():
    """GIF files for the decode_gif cases (made with Pillow): a still image, an animation
    whose later frames cover part of the canvas with transparent pixels, an interlaced one,
    and one of many colors (long LZW codes)."""
    import numpy as np  # noqa: PLC0415 - the recorder's own imports
    from PIL import Image  # noqa: PLC0415 - the recorder's optional dependency
    os.makedirs(GIFS, exist_ok=True)
    rng = np.random.default_rng(3)
    still = Image.fromarray(rng.integers(0, 256, (7, 9, 3), np.uint8)).quantize(16)
    still.save(os.path.join(GIFS, 'still.gif'))
    frames = [Image.fromarray(np.full((6, 8, 3), c, np.uint8)) for c in (40, 120, 200)]
    frames[1].paste((255, 0, 0), (2, 1, 5, 4))
    frames[0].save(os.path.join(GIFS, 'animated.gif'), save_all=True,
                   append_images=frames[1:], duration=100, loop=0, optimize=True,
                   disposal=1)
    stripes = Image.fromarray(np.repeat(np.arange(0, 250, 10, dtype=np.uint8)[:, None],
                                        11, axis=1)).convert('P')
    stripes.save(os.path.join(GIFS, 'interlaced.gif'), interlace=True)
    many = Image.fromarray(rng.integers(0, 256, (40, 50, 3), np.uint8)).quantize(256)
    many.save(os.path.join(GIFS, 'many_colors.gif'))


def main():
    sys.path.insert(0, os.path.join(ROOT, 'tools'))
    import io_more_cases  # noqa: PLC0415 - tools/ is on the path only here
    import tensorflow as tf  # noqa: PLC0415 - the recorder's optional dependency

    write_gifs()
    results = {}
    for name, fn in io_more_cases.CASES.items():
        with tempfile.TemporaryDirectory() as scratch:
            results[name] = fn(tf, scratch)
    with open(OUT, 'w') as f:
        json.dump({'tensorflow': tf.__version__, 'cases': results}, f, indent=1,
                  sort_keys=True)
        f.write('\n')
    print(f'wrote {len(results)} cases to {OUT}')


if __name__ == '__main__':
    main()
