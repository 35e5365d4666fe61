"""Generators of the memory-system kernels: the pointer chase and the streaming SVA.

Both write complete PAR packet programs (.par source text) whose data sections are computed here,
deterministically (own xorshift64* generator, no third-party modules, no dependence on the Python
version), so a given command line always produces the same file. Used by the command-line tools
scripts/gen-pointer-chase and scripts/gen-stream-sva and by scripts/mem-latency.
"""

import re

LINE_BYTES = 64
STRIDES = ("unit", "line", "random")
DEFAULT_BASE = 0x10000  # data from 64 KiB up: local memory by default, device DRAM with device-dram.ini


class Rng:
    """xorshift64* generator (the one of scripts/gen-kernel-data): identical on every platform."""

    def __init__(self, seed):
        self.state = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def next(self):
        x = self.state
        x ^= (x >> 12)
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= (x >> 27)
        self.state = x
        return (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        """Uniform-enough integer in [0, n)."""
        return (self.next() >> 11) % n


def parse_size(text):
    """'4096', '64K', '64KiB', '2M', '1G' -> bytes (binary multiples). Raises ValueError."""
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgG]?)(i?[bB])?\s*", str(text))
    if not m:
        raise ValueError("bad size %r (examples: 4096, 64K, 2M)" % text)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]


def size_text(n):
    """Bytes as the shortest exact binary-multiple text: 16384 -> '16K', 3145728 -> '3M'."""
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if n and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, suffix)
    return str(n)


# ------------------------------------------------------------------------------------------------
# Pointer chase

def chase_order(nbytes, stride, seed=1):
    """The chain as a list of byte offsets (from the chain start) in visiting order; the element
    at order[k] holds the address of order[(k + 1) % n]. unit: every 8-byte word in address order;
    line: the first word of every 64-byte line in address order; random: the first word of every
    line, visited in a random cyclic order (Sattolo's algorithm: one cycle through all lines)."""
    if stride not in STRIDES:
        raise ValueError("stride must be one of %s, got %r" % (", ".join(STRIDES), stride))
    step = 8 if stride == "unit" else LINE_BYTES
    if nbytes < 2 * step or nbytes % step:
        raise ValueError("chain size %d bytes: must be a multiple of %d bytes and hold at least two elements"
                         % (nbytes, step))
    n = nbytes // step
    order = list(range(n))                      # unit, line: address order
    if stride == "random":
        rng = Rng(seed)
        cycle = list(range(n))
        for i in range(n - 1, 0, -1):          # Sattolo: a uniformly random n-cycle
            j = rng.below(i)
            cycle[i], cycle[j] = cycle[j], cycle[i]
        # cycle[] is a permutation consisting of one cycle; follow it from element 0.
        order = [0] * n
        k = 0
        for pos in range(n):
            order[pos] = k
            k = cycle[k]
    return [k * step for k in order]


def stride_text(stride, seed):
    return {"unit": "8-byte words in address order (unit stride)",
            "line": "one word per 64-byte line, lines in address order (line stride)",
            "random": "one word per 64-byte line, lines in a random cyclic order (seed %d)" % seed}[stride]


def chase_packet_lines(threads, steps, warmup, unroll, pointers):
    """The packet header up to .CODE: thread count and the inherited registers i1..i3."""
    return [
        ".PAR",
        ".ADDRESS chase",
        ".THREADS %d" % threads,
        ".I1 %-16s // measured iterations (steps / %d)" % (steps // unroll, unroll),
        ".I2 %-16s // warm-up iterations" % (warmup // unroll),
        ".I3 %-16s // &start %s, then &final %s" % ("chase_result", pointers, pointers),
        "",
        ".CODE",
    ]


def check_chase_loop(steps, unroll, base):
    if unroll < 1 or unroll > 64:
        raise ValueError("unroll must be in 1..64, got %d" % unroll)
    if steps < 0 or steps % unroll:
        raise ValueError("steps (%d) must be a non-negative multiple of the unroll factor %d" % (steps, unroll))
    if base % LINE_BYTES:
        raise ValueError("base 0x%x is not %d-byte aligned" % (base, LINE_BYTES))


def check_warmup(warmup, unroll):
    if warmup < 0 or warmup % unroll:
        raise ValueError("warm-up (%d) must be a non-negative multiple of the unroll factor %d" % (warmup, unroll))


def chase_step_lines(unroll):
    """The loop body: `unroll` dependent loads p = *p, the last one ending the block."""
    if unroll == 1:
        return ["step:   ld8     r1 = r1[0]      #       // p = *p"]
    return (["step:   ld8     r1 = r1[0]              // p = *p"] + ["        ld8     r1 = r1[0]"] * (unroll - 2) +
            ["        ld8     r1 = r1[0]      #"])


def chase_data_lines(nxt, stride, base):
    """The chain's data section (nxt: by element index, the address of the next element), aligned
    up to a line so that the result words that follow get lines of their own."""
    out = ["", ".DATA 0x%x" % base]
    per_line = 8 if stride == "unit" else 1
    zeros = "" if stride == "unit" else ", 0, 0, 0, 0, 0, 0, 0"  # the rest of the line
    for k in range(0, len(nxt), per_line):
        head = "chase_chain: " if k == 0 else "        "
        out.append("%s.i64 %s%s" % (head, ", ".join("0x%x" % a for a in nxt[k:k + per_line]), zeros))
    out.append("        .align %d" % LINE_BYTES)
    return out


def chase_program(nbytes, stride, steps, warmup=None, unroll=8, seed=1, base=DEFAULT_BASE, command="", chains=1):
    """Source text of the pointer-chase packet and the final pointer of chain 0. steps and warmup
    (default: one pass over a chain, rounded up to a whole loop iteration) are numbers of dependent
    loads per thread. With chains > 1, chase_chains_program()."""
    if chains != 1:
        text, finals = chase_chains_program(nbytes, stride, steps, warmup, unroll, seed, base, command, chains)
        return text, finals[0]
    check_chase_loop(steps, unroll, base)
    order = chase_order(nbytes, stride, seed)
    n = len(order)
    if warmup is None:
        warmup = -(-n // unroll) * unroll
    check_warmup(warmup, unroll)
    step_bytes = 8 if stride == "unit" else LINE_BYTES
    nxt = [0] * n                               # by element index (address order): next address
    for k in range(n):
        nxt[order[k] // step_bytes] = base + order[(k + 1) % n]
    final = base + order[(warmup + steps) % n]

    what = stride_text(stride, seed)
    out = [
        "// Pointer chase -- generated by scripts/gen-pointer-chase; do not edit by hand.",
        "// Regenerate: %s" % command if command else "//",
        "//",
        "// One thread follows a cyclic chain of %d pointers (%d bytes): %s." % (n, nbytes, what),
        "// Every element holds the address of the next, so each load needs the previous one's",
        "// result: the time per step is the load-to-use latency of the memory holding the chain.",
        "// The thread reads its start pointer from chase_result (initially &chain[0]), walks %d" % warmup,
        "// warm-up steps (i2 iterations), then %d measured steps (i1 iterations), %d dependent loads" % (steps, unroll),
        "// per iteration, and stores the final pointer back to chase_result (a line it has loaded, so",
        "// the store does not miss in a cache that holds the chain).",
        "// Expected final pointer: 0x%x (element (warm-up + steps) mod %d of the chain)." % (final, n),
        "// Measure: cycles(2S steps) - cycles(S steps), divided by S (sw/kernels/README.md).",
    ] + chase_packet_lines(1, steps, warmup, unroll, "pointer") + [
        "chase:  ld8     r1 = i3[0]              // p = start pointer",
        "        loop    i2, step                // warm-up: bring the chain into the caches",
        "        loop    i1, step                // the measured steps",
        "        st8     i3[0] = r1      #       // result = p; end of the thread",
    ]
    out += chase_step_lines(unroll)
    out += chase_data_lines(nxt, stride, base)
    out.append("chase_result: .i64 chase_chain")
    out.append("        .zero %d" % (LINE_BYTES - 8))
    return "\n".join(out) + "\n", final


def chase_chains_program(nbytes, stride, steps, warmup=None, unroll=8, seed=1, base=DEFAULT_BASE, command="",
                         chains=2):
    """Source text of a pointer chase of `chains` threads, each on a chain of its own, and the
    expected final pointer of each. The working set's elements in their chase_order() are cut into
    `chains` equal runs, each closed into a cycle: thread t walks run t (with stride random its
    lines lie anywhere in the working set, so the threads' loads are independent). Each thread
    reads its start pointer from chase_result[t] and stores its final pointer there."""
    if chains < 1:
        raise ValueError("chains must be at least 1, got %d" % chains)
    check_chase_loop(steps, unroll, base)
    order = chase_order(nbytes, stride, seed)
    n = len(order)
    if n % chains or n // chains < 2:
        raise ValueError("%d elements do not split into %d chains of at least two elements each" % (n, chains))
    m = n // chains
    if warmup is None:
        warmup = -(-m // unroll) * unroll
    check_warmup(warmup, unroll)
    step_bytes = 8 if stride == "unit" else LINE_BYTES
    nxt = [0] * n
    for t in range(chains):
        run = order[t * m:(t + 1) * m]
        for j in range(m):
            nxt[run[j] // step_bytes] = base + run[(j + 1) % m]
    starts = [base + order[t * m] for t in range(chains)]
    finals = [base + order[t * m + (warmup + steps) % m] for t in range(chains)]
    what = stride_text(stride, seed)
    out = [
        "// Pointer chase -- generated by scripts/gen-pointer-chase; do not edit by hand.",
        "// Regenerate: %s" % command if command else "//",
        "//",
        "// %d threads, each following a cyclic chain of its own. The working set, %d pointers" % (chains, n),
        "// (%d bytes): %s." % (nbytes, what),
        "// Its elements in that order are cut into %d runs of %d, each closed into a cycle." % (chains, m),
        "// Thread t reads its start pointer from chase_result[t], walks %d warm-up steps" % warmup,
        "// (i2 iterations), then %d measured steps (i1 iterations), %d dependent loads per" % (steps, unroll),
        "// iteration, and stores its final pointer back to chase_result[t]. The threads' loads do",
        "// not depend on each other.",
        "// Expected final pointers, thread 0 first:",
    ]
    for k in range(0, chains, 8):
        out.append("//   %s" % ", ".join("0x%x" % f for f in finals[k:k + 8]))
    out += chase_packet_lines(chains, steps, warmup, unroll, "pointers") + [
        "chase:  sll     r2 = i0, 3              // byte offset of this thread's pointer",
        "        ld8     r1 = r2[i3]             // p = start pointer of chain i0",
        "        loop    i2, step                // warm-up: bring the chains into the caches",
        "        loop    i1, step                // the measured steps",
        "        st8     r2[i3] = r1     #       // result = p; end of the thread",
    ]
    out += chase_step_lines(unroll)
    out += chase_data_lines(nxt, stride, base)
    for k in range(0, chains, 8):
        head = "chase_result: " if k == 0 else "        "
        out.append("%s.i64 %s" % (head, ", ".join("0x%x" % a for a in starts[k:k + 8])))
    pad = -(8 * chains) % LINE_BYTES
    if pad:
        out.append("        .zero %d" % pad)
    return "\n".join(out) + "\n", finals


# ------------------------------------------------------------------------------------------------
# Streaming SVA

def tenths_text(k):
    """k / 10 as short source text: 25 -> '2.5', -30 -> '-3'."""
    sign, k = ("-" if k < 0 else ""), abs(k)
    return sign + (str(k // 10) if k % 10 == 0 else "%d.%d" % (k // 10, k % 10))


def random_tenths(rng, lo, hi, count):
    """`count` decimals with one fractional digit in [lo/10, hi/10], as source text."""
    table = [tenths_text(k) for k in range(lo, hi + 1)]
    return [table[rng.below(hi - lo + 1)] for _ in range(count)]


def stream_sva_program(elements, a="2.5", seed=7, base=DEFAULT_BASE, command=""):
    """Source text of the streaming SVA packet: z[i] = fma(x[i], a, y[i]), one element per thread,
    x, y, z consecutive 64-byte aligned binary64 arrays from `base` up."""
    if elements < 1:
        raise ValueError("elements must be at least 1, got %d" % elements)
    if base % LINE_BYTES:
        raise ValueError("base 0x%x is not %d-byte aligned" % (base, LINE_BYTES))
    rng = Rng(seed)
    array = -(-elements * 8 // LINE_BYTES) * LINE_BYTES
    out = [
        "// Streaming SVA -- generated by scripts/gen-stream-sva; do not edit by hand.",
        "// Regenerate: %s" % command if command else "//",
        "//",
        "// z[i] = a * x[i] + y[i] (fused: fma(x[i], a, y[i])) for i = 0 .. %d, one element per thread." % (elements - 1),
        "// x, y, z: %d binary64 each (%d bytes per array, %d bytes in all), so a large instance" % (elements, array, 3 * array),
        "// streams through device DRAM: every line is read (x, y) or written (z) once.",
        "// Per thread: 1 ALU, 1 FPU, 3 LS.",
        ".PAR",
        ".ADDRESS stream_sva",
        ".THREADS %d" % elements,
        ".I1 sva_x              // &x[0]",
        ".I2 sva_y              // &y[0]",
        ".I3 sva_z              // &z[0]",
        ".I4 %-18s // a (binary64)" % a,
        "",
        ".CODE",
        "stream_sva:",
        "        sll     r1 = i0, 3              // ALU  byte offset of element i",
        "        ld8     r2 = r1[i1]             // LS   x[i]",
        "        ld8     r3 = r1[i2]             // LS   y[i]",
        "        mac.d   r3 = r2, i4             // FPU  z = fma(x[i], a, y[i])",
        "        st8     r1[i3] = r3     #       // LS   z[i]; end of the thread",
        "",
        ".DATA 0x%x" % base,
    ]
    for label in ("sva_x", "sva_y"):
        vals = random_tenths(rng, -99, 99, elements)
        for k in range(0, elements, 16):
            out.append("%s.f64 %s" % ((label + ": ") if k == 0 else "        ", ", ".join(vals[k:k + 16])))
        out.append("        .align %d" % LINE_BYTES)
    out.append("sva_z:  .zero %d" % array)
    return "\n".join(out) + "\n"
