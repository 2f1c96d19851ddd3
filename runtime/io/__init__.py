"""`rt.io`: TensorFlow's `tf.io`: files (`read_file`, `write_file`, `matching_files`,
`gfile`), serialized tensors, TFRecord files, `tf.train.Example` parsing for dense features,
CSV, base64 and compressed strings, and the PNG, BMP and GIF image codecs (runtime/io/*.py).

Out of scope: JPEG, WebP and JPEG XL pixels (a codec library), protocol buffers by
descriptor (`decode_proto`, `encode_proto`), and the sparse and ragged features.
"""
from runtime.io import gfile
from runtime.io.codecs import (
    decode_base64,
    decode_bmp,
    decode_compressed,
    decode_gif,
    decode_image,
    decode_png,
    encode_base64,
    encode_png,
    extract_jpeg_shape,
    is_jpeg,
)
from runtime.io.csv import decode_csv
from runtime.io.example import (
    FixedLenFeature,
    FixedLenSequenceFeature,
    decode_json_example,
    parse_example,
    parse_sequence_example,
    parse_single_example,
    parse_single_sequence_example,
)
from runtime.io.files import (
    match_filenames_once,
    matching_files,
    parse_tensor,
    read_file,
    serialize_tensor,
    write_file,
)
from runtime.io.records import TFRecordOptions, TFRecordWriter, write_graph
from runtime.ops.string_split import decode_raw

__all__ = ['FixedLenFeature', 'FixedLenSequenceFeature', 'TFRecordOptions',
           'TFRecordWriter', 'decode_base64', 'decode_bmp', 'decode_compressed',
           'decode_csv', 'decode_gif', 'decode_image', 'decode_json_example',
           'decode_png', 'decode_raw', 'encode_base64', 'encode_png',
           'extract_jpeg_shape', 'gfile', 'is_jpeg', 'match_filenames_once',
           'matching_files', 'parse_example', 'parse_sequence_example',
           'parse_single_example', 'parse_single_sequence_example', 'parse_tensor',
           'read_file', 'serialize_tensor', 'write_file', 'write_graph']
