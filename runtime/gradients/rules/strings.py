"""The string ops of runtime/ops/strings.py: none is differentiable (TensorFlow's
string_ops)."""
from runtime.gradients.rules.common import not_differentiable
from runtime.ops import string_split, strings

not_differentiable(strings.STRING_JOIN, strings.STRING_LENGTH, strings.STRING_LOWER,
                   strings.STRING_UPPER, strings.SUBSTR, strings.AS_STRING,
                   strings.STRING_TO_NUMBER, strings.STRING_FORMAT, strings.STRING_STRIP,
                   strings.STATIC_REGEX_REPLACE, strings.STATIC_REGEX_FULL_MATCH,
                   strings.REDUCE_JOIN)
not_differentiable(string_split.STRING_SPLIT_V2, string_split.STRING_SPLIT,
                   string_split.UNICODE_DECODE, string_split.UNICODE_DECODE_WITH_OFFSETS,
                   string_split.UNICODE_ENCODE, string_split.DECODE_RAW,
                   string_split.DECODE_PADDED_RAW)
