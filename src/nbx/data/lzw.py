"""Decoder for Unix ``compress`` (.Z) files, in which the UCI archive ships ``waveform.data``.

Format (as written by ncompress): magic 1F 9D, a flag byte (low 5 bits: maximum code width; bit 7: block
mode, where code 256 clears the table), then LZW codes packed least-significant bit first, starting at
9 bits. Codes are written in groups of 8, so whenever the code width changes or the table is cleared the
reader skips to the end of the current group of ``n_bits`` bytes.
"""

from __future__ import annotations

CLEAR = 256


def unlzw(data: bytes) -> bytes:
    if len(data) < 3 or data[0] != 0x1F or data[1] != 0x9D:
        raise ValueError("not a .Z (compress) file: bad magic bytes")
    max_bits = data[2] & 0x1F
    block_mode = bool(data[2] & 0x80)
    if not 9 <= max_bits <= 16:
        raise ValueError(f"unsupported .Z maximum code width {max_bits}")
    payload = int.from_bytes(data[3:], "little")
    total_bits = (len(data) - 3) * 8

    def reset():
        return [bytes([i]) for i in range(256)] + ([b""] if block_mode else [])

    table = reset()
    n_bits, pos, group_start = 9, 0, 0
    out = bytearray()
    prev = None

    def align(position: int) -> int:
        group = n_bits * 8
        return group_start + -(-(position - group_start) // group) * group

    while True:
        # free entry beyond the widest code of this width: widen (ncompress checks before each read)
        if len(table) > (1 << n_bits) - 1 and n_bits < max_bits:
            pos = align(pos)
            group_start = pos
            n_bits += 1
        if pos + n_bits > total_bits:
            break
        code = (payload >> pos) & ((1 << n_bits) - 1)
        pos += n_bits
        if block_mode and code == CLEAR:
            pos = align(pos)
            # ncompress keeps the previous string, so the next code fills slot 256 (never referenced)
            table = reset()[:256]
            n_bits, group_start = 9, pos
            continue
        if prev is None:
            if code >= 256:
                raise ValueError(f"corrupt .Z data: first code {code} is not a literal")
            entry = table[code]
        elif code < len(table):
            entry = table[code]
            if len(table) < (1 << max_bits):
                table.append(prev + entry[:1])
        elif code == len(table):
            entry = prev + prev[:1]
            table.append(entry)
        else:
            raise ValueError(f"corrupt .Z data: code {code} with table size {len(table)}")
        out += entry
        prev = entry
    return bytes(out)
