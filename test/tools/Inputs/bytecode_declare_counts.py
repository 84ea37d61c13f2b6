"""Writes a copy of MLIR bytecode IN to OUT whose attribute/type offset
section declares ATTRS attributes and TYPES types (the rest of the section
as it was). Sections and prefixed varints as mlir/Bytecode/Encoding.h
describes them: an id byte (high bit: aligned), a length, for an aligned
one an alignment and 0xCB padding up to it.

    python3 bytecode_declare_counts.py IN OUT ATTRS TYPES
"""
import sys


def encode(value):
    for size in range(1, 9):
        if value < 1 << (7 * size):
            return (((value << 1) | 1) << (size - 1)).to_bytes(size, "little")
    return b"\0" + value.to_bytes(8, "little")


def decode(data, at):
    first = data[at]
    if first == 0:
        return int.from_bytes(data[at + 1:at + 9], "little"), at + 9
    size = (first & -first).bit_length()
    return int.from_bytes(data[at:at + size], "little") >> size, at + size


def main():
    src, dst, attrs, types = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    data = open(src, "rb").read()
    assert data[:4] == b"ML\xefR", "not MLIR bytecode"
    _, at = decode(data, 4)
    at = data.index(b"\0", at) + 1
    out = bytearray(data[:at])
    while at < len(data):
        ident = data[at]
        length, at = decode(data, at + 1)
        alignment = None
        if ident & 0x80:
            alignment, at = decode(data, at)
            while at % alignment:
                at += 1
        body = data[at:at + length]
        at += length
        if ident & 0x7F == 3:
            _, rest = decode(body, 0)
            _, rest = decode(body, rest)
            body = encode(attrs) + encode(types) + body[rest:]
        out += bytes([ident]) + encode(len(body))
        if alignment:
            out += encode(alignment)
            while len(out) % alignment:
                out.append(0xCB)
        out += body
    open(dst, "wb").write(bytes(out))


if __name__ == "__main__":
    main()
