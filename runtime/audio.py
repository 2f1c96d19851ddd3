"""`rt.audio`: TensorFlow's `tf.audio`, WAV files of 16-bit PCM samples: `encode_wav` (op
`EncodeWav`) and `decode_wav` (op `DecodeWav`), samples as float32 in [-1, 1)."""
import struct

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, register

_SCALE = 32768.0


def _encode(audio, sample_rate):
    audio = np.asarray(audio, np.float32)
    if audio.ndim != 2:
        raise errors.InvalidArgumentError(
            message=f'audio must be 2-dimensional (frames, channels), got shape '
                    f'{list(audio.shape)}')
    rate = int(sample_rate)
    if rate <= 0:
        raise errors.InvalidArgumentError(message=f'sample_rate must be positive, got {rate}')
    frames, channels = audio.shape
    samples = np.clip(np.round(audio * np.float32(_SCALE)), -32768, 32767).astype('<i2')
    data = samples.tobytes()
    header = b'RIFF' + struct.pack('<I', 36 + len(data)) + b'WAVE' + b'fmt ' + struct.pack(
        '<IHHIIHH', 16, 1, channels, rate, rate * channels * 2, channels * 2, 16) + \
        b'data' + struct.pack('<I', len(data))
    return np.array(header + data, dtype=object)[()]


def _chunks(data):
    """{chunk id: body} of a RIFF WAVE file; InvalidArgumentError when it is not one."""
    if len(data) < 12 or data[:4] != b'RIFF' or data[8:12] != b'WAVE':
        raise errors.InvalidArgumentError(message='Header mismatch: Expected RIFF but found '
                                                  f'{data[:4]!r}')
    found, pos = {}, 12
    while pos + 8 <= len(data):
        chunk, size = data[pos:pos + 4], struct.unpack('<I', data[pos + 4:pos + 8])[0]
        found.setdefault(chunk, data[pos + 8:pos + 8 + size])
        pos += 8 + size + (size & 1)
    return found


def _decode(contents, desired_channels=-1, desired_samples=-1):
    data = bytes(contents)
    chunks = _chunks(data)
    fmt, body = chunks.get(b'fmt '), chunks.get(b'data')
    if fmt is None or body is None or len(fmt) < 16:
        raise errors.InvalidArgumentError(message='Bad WAV file: no fmt or data chunk.')
    form, channels, rate, _, _, bits = struct.unpack('<HHIIHH', fmt[:16])
    if form != 1 or bits != 16:
        raise errors.InvalidArgumentError(
            message=f'Bad audio format {form} with {bits} bits per sample; only 16-bit PCM '
                    f'is read.')
    samples = np.frombuffer(body[:len(body) - len(body) % (2 * channels)], '<i2')
    audio = (samples.reshape(-1, channels) / np.float32(_SCALE)).astype(np.float32)
    if desired_channels > 0 and desired_channels != channels:
        if channels == 1:
            audio = np.repeat(audio, desired_channels, axis=1)
        elif desired_channels < channels:
            audio = audio[:, :desired_channels]
        else:
            raise errors.InvalidArgumentError(
                message=f'Bad number of channels: the file has {channels}, {desired_channels} '
                        f'were asked for.')
    if desired_samples >= 0:
        audio = audio[:desired_samples]
        if len(audio) < desired_samples:
            audio = np.concatenate([audio, np.zeros((desired_samples - len(audio),
                                                     audio.shape[1]), np.float32)])
    return audio, np.int32(rate)


ENCODE_WAV = register('EncodeWav', _encode, lambda inputs, attrs: [(dtypes.string,
                                                                   TensorShape([]))],
                      inputs=('audio', 'sample_rate'), outputs=('contents',), type_attrs=(),
                      gradient=NO_GRADIENT)
DECODE_WAV = register(
    'DecodeWav', _decode, lambda inputs, attrs: [
        (dtypes.float32, TensorShape([None if attrs.get('desired_samples', -1) < 0 else
                                      attrs['desired_samples'],
                                      None if attrs.get('desired_channels', -1) < 0 else
                                      attrs['desired_channels']])),
        (dtypes.int32, TensorShape([]))],
    inputs=('contents',), outputs=('audio', 'sample_rate'), type_attrs=(),
    defaults={'desired_channels': -1, 'desired_samples': -1}, gradient=NO_GRADIENT)


def encode_wav(audio, sample_rate, name=None):
    """A WAV file of 16-bit samples of `audio` (float32, [frames, channels], in [-1, 1))."""
    audio = convert_to_tensor(audio, dtypes.float32)
    if audio.shape.rank is not None and audio.shape.rank != 2:
        raise ValueError(f'encode_wav: audio must have shape [frames, channels], got '
                         f'{audio.shape}.')
    return apply(ENCODE_WAV, [audio, convert_to_tensor(sample_rate, dtypes.int32)], name=name)


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """(audio: float32 [samples, channels] in [-1, 1), sample_rate: int32) of a 16-bit PCM
    WAV file; `desired_channels` / `desired_samples` reshape it as TensorFlow's op does."""
    return tuple(apply(DECODE_WAV, [convert_to_tensor(contents, dtypes.string)],
                       {'desired_channels': int(desired_channels),
                        'desired_samples': int(desired_samples)}, name=name))


__all__ = ['decode_wav', 'encode_wav']
