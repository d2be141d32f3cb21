"""make bench, ingest section: Python's json on a generated dump, each List item alone (as the library
and the jansson column parse them), so that a 50,000-node dump needs no more memory than one item.

    python3 tests/bench/ingest.py FILE      prints "seconds bytes"
"""

import json
import sys
import time


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    decoder = json.JSONDecoder()
    start = time.perf_counter()
    space = " \t\r\n"
    pos = text.index("[", text.index('"items"')) + 1
    while text[pos] in space:
        pos += 1
    while text[pos] != "]":
        _, pos = decoder.raw_decode(text, pos)
        while text[pos] in space:
            pos += 1
        if text[pos] == ",":
            pos += 1
            while text[pos] in space:
                pos += 1
    print(f"{time.perf_counter() - start:.6f} {len(text.encode('utf-8'))}")


if __name__ == "__main__":
    main()
