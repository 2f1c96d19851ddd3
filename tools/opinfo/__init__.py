"""The op conformance database: what every op is called with, described once as data.

One `OpInfo` per op of the registry (`runtime/ops/registry.py`) and per public differentiable
function built from ops (`nn.sigmoid_cross_entropy_with_logits`, `math.reduce_logsumexp`...).
An entry names TensorFlow's public function (`math.reduce_prod`), which this project spells the
same way, and generates its samples from one description: seeded random values in every dtype
the op accepts, the edge values users hit (0, -0.0, ties, kinks, inf and nan, empty tensors,
broadcasting shapes, int64 dims and axes) and invalid inputs, whose error type is expected.

`evaluate` runs one sample with a library (TensorFlow or this project), eagerly or in a traced
function: the outputs, their first (and second) order gradients, the static shape a trace with
unknown dims infers, or the error's type. `tools/tf_conformance_fixtures.py` records TensorFlow's
answers with it; tests/runtime/conformance compares this project with them. This package imports
numpy only, so both sides share it.
"""
from tools.opinfo.array_entries import array_entries, array_more_entries, string_entries
from tools.opinfo.math_entries import (
    binary_entries,
    bitwise_complex_entries,
    reduction_entries,
    special_entries,
    unary_entries,
)
from tools.opinfo.more_entries import COVERED, core_more_entries
from tools.opinfo.nn_linalg_entries import linalg_entries, linalg_more_entries, nn_entries
from tools.opinfo.running import (
    Library,
    decode,
    dtype_name,
    encode,
    evaluate,
    flat_outputs,
    resolve,
    static_shapes,
)
from tools.opinfo.samples import (
    ALL_FLOATS,
    FLOATS,
    INTS,
    NUMBERS,
    REALS,
    SPECIALS,
    DType,
    OpInfo,
    R,
    Sample,
    T,
    cases,
    cotangent,
    is_float,
    s,
    sample_list,
    substitute,
    t,
    values,
)

__all__ = [
    'ALL_FLOATS', 'COVERED', 'DType', 'FLOATS', 'INTS', 'Library', 'NUMBERS', 'OpInfo', 'R',
    'REALS', 'SPECIALS', 'Sample', 'T', 'cases', 'cotangent', 'decode', 'dtype_name', 'encode',
    'entries', 'evaluate', 'families', 'flat_outputs', 'is_float', 'resolve', 's',
    'sample_list', 'static_shapes', 'substitute', 't', 'values',
]


def entries() -> list[OpInfo]:
    """Every entry: the sampled ones, then one per covered op."""
    sampled = (unary_entries() + binary_entries() + reduction_entries() + nn_entries()
               + linalg_entries() + array_entries() + string_entries()
               + bitwise_complex_entries() + array_more_entries() + special_entries()
               + linalg_more_entries() + core_more_entries())
    covered = [OpInfo(op, covered_by=where) for where, ops in COVERED.items() for op in ops]
    return sampled + covered


def families(all_entries: list[OpInfo]) -> dict[str, list[OpInfo]]:
    out: dict[str, list[OpInfo]] = {}
    for e in all_entries:
        if e.samples is not None:
            out.setdefault(e.family, []).append(e)
    return out
