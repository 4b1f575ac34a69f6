#!/usr/bin/env python3
"""Compare a `tengen profile --folded` profile with callgrind's instruction counts, frame by frame.

    valgrind --tool=callgrind --dump-instr=yes --dump-line=no --callgrind-out-file=cg.out \
        target/release/tengen bench --size 9 --playouts 3000
    target/release/tengen profile --size 9 --seconds 20 --folded prof.folded
    python3 perf/phase_shares.py prof.folded cg.out target/release/tengen --root light_playout

Callgrind counts the instructions of every machine address. Each address is resolved to its
inline stack with binutils `addr2line -i` (the DWARF the profiler reads too), and the cost of a
call instruction (the callee's inclusive cost) is spread over the callee's own inline stacks,
placed under the call site's stack, as the profiler's unwound stacks place them. A frame's
share is then the part of the root frame's instructions that lie inside it, and the profile's
share is the part of the root frame's samples whose stack holds it. The table lists every frame
below the root with at least --min percent in either column. Names are compared without their
generic arguments (as the profiler draws them) and without module paths.
"""

import argparse
import collections
import re
import subprocess
import sys


def without_generics(name):
    """`ply<2, 9, Pcg>` -> `ply` (a trailing <...> group that is not the whole name)."""
    if not name.endswith(">"):
        return name
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        c = name[i]
        if c == ">":
            depth += 1
        elif c == "<":
            depth -= 1
            if depth == 0:
                return name if i == 0 else name[:i]
    return name


def short(name):
    """The name as compared: no generic arguments, no module path (the symbol table's names
    have paths, DWARF's inline names do not)."""
    name = without_generics(name)
    return name if name.startswith("<") else name.rsplit("::", 1)[-1]


def read_folded(path):
    stacks = collections.Counter()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, n = line.rsplit(" ", 1)
            stacks[tuple(short(f) for f in stack.split(";"))] += int(n)
    return stacks


def callgrind_costs(path, binary, event="Ir"):
    """Self cost per instruction address, and (call-site address, callee) -> inclusive cost,
    for the addresses in `binary`'s object."""
    names = {"ob": {}, "fn": {}}
    own = {}
    calls = {}
    ob = None
    last = 0
    callee = None
    call_next = False
    binary_base = binary.rsplit("/", 1)[-1]
    positions = ["line"]
    column = 0

    def name_of(kind, value):
        m = re.match(r"\((\d+)\)(?: (.*))?", value)
        if not m:
            return value
        table = names["ob" if kind in ("ob", "cob") else "fn"]
        if m.group(2) is not None:
            table[m.group(1)] = m.group(2)
        return table.get(m.group(1), "?")

    def position(tok):
        nonlocal last
        if tok == "*":
            return last
        if tok.startswith("+"):
            last = last + int(tok[1:], 0)
        elif tok.startswith("-"):
            last = last - int(tok[1:], 0)
        else:
            last = int(tok, 0)
        return last

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("positions:"):
                positions = line.split()[1:]
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
                if event not in events:
                    sys.exit(f"no event {event} in {path} (it has {' '.join(events)})")
                column = events.index(event)
                continue
            m = re.match(r"^(ob|fl|fi|fe|fn|cob|cfi|cfl|cfn)=(.*)$", line)
            if m:
                kind, value = m.groups()
                if kind == "ob":
                    ob = name_of("ob", value)
                elif kind == "cob":
                    name_of("ob", value)
                elif kind == "fn":
                    name_of("fn", value)
                elif kind == "cfn":
                    callee = name_of("fn", value)
                continue
            if line.startswith("calls="):
                # calls=COUNT TARGET: the next cost line is the call's inclusive cost.
                call_next = True
                continue
            if not line or not (line[0].isdigit() or line[0] in "+-*"):
                continue
            toks = line.split()
            addr = position(toks[0])
            # Trailing zero counts may be left out.
            i = len(positions) + column
            cost = int(toks[i]) if i < len(toks) else 0
            mine = ob is not None and ob.rsplit("/", 1)[-1] == binary_base
            if call_next:
                call_next = False
                if mine:
                    calls[(addr, callee)] = calls.get((addr, callee), 0) + cost
                continue
            if mine:
                own[addr] = own.get(addr, 0) + cost
    return own, calls


def load_bias(binary, own):
    """Runtime address minus file address of the binary under valgrind: the lowest executed
    address of `main` against its symbol."""
    out = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    sym = None
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "main" and parts[1] in "Tt":
            sym = int(parts[0], 16)
    if sym is None:
        sys.exit("no `main` symbol in the binary")
    # valgrind maps a position-independent executable at 0x108000 on amd64 (file address 0
    # for the first segment); check that `main` lands on an executed address.
    for bias in (0x108000, 0):
        if sym + bias in own:
            return bias
    sys.exit("cannot find the load address of the binary in the callgrind file")


def inline_stacks(binary, addrs):
    """addr -> tuple of frame names, outermost first, from `addr2line -i`."""
    addrs = sorted(addrs)
    inp = "".join(f"{a:#x}\n" for a in addrs)
    out = subprocess.run(
        ["addr2line", "-a", "-i", "-f", "-C", "-e", binary],
        input=inp, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    stacks = {}
    cur = None
    frames = []

    def done():
        # addr2line names the innermost level after the symbol (here the outermost function)
        # where the line table has a line of an inlined function the inline tree lacks: no
        # frame of its own there.
        outer = list(reversed(frames))
        if len(outer) > 1 and outer[-1] == outer[0]:
            outer.pop()
        stacks[cur] = tuple(outer)

    i = 0
    while i < len(out):
        line = out[i]
        if line.startswith("0x"):
            if cur is not None:
                done()
            cur = int(line, 16)
            frames = []
            i += 1
            continue
        frames.append(short(line.strip()))
        i += 2  # function, then file:line
    if cur is not None:
        done()
    return stacks


def callgrind_folded(cg_path, binary, root, event="Ir"):
    own, calls = callgrind_costs(cg_path, binary, event)
    bias = load_bias(binary, own)
    addrs = {a - bias for a in own} | {a - bias for (a, _) in calls}
    stacks = inline_stacks(binary, addrs)
    # Each function's own costs by inline stack (outermost frame: the function).
    body = collections.defaultdict(collections.Counter)
    for a, c in own.items():
        st = stacks.get(a - bias, ("?",))
        body[st[0]][st] += c
    call_sites = [(stacks.get(a - bias, ("?",)), short(callee or "?"), c)
                  for (a, callee), c in calls.items()]

    def graft(site, callee, cost, depth, out):
        """Spreads a call's inclusive cost over the callee's own stacks, as the profile's
        unwound stacks do (callee frames under the call site's inline stack)."""
        mine = body.get(callee)
        inner = [(st, c) for st, c in (mine or {}).items()]
        inner += [(s, c) for (s, cal, c) in call_sites if s[0] == callee and depth < 4]
        total = sum(c for _, c in inner)
        if not total:
            out[site + (callee,)] += cost
            return
        for st, c in inner:
            share = cost * c / total
            if st in (mine or {}):
                out[site + st] += share
        for (s, cal, c) in call_sites:
            if s[0] == callee and depth < 4:
                graft(site + s, cal, cost * c / total, depth + 1, out)

    folded = collections.Counter()
    for fn_stacks in body.values():
        folded.update(fn_stacks)
    for site, callee, c in call_sites:
        if root in site:
            graft(site, callee, c, 0, folded)
    return folded


def shares(stacks, root):
    """Frame -> share (%) of the samples or instructions under `root` whose stack holds it."""
    total = 0
    incl = collections.Counter()
    for stack, n in stacks.items():
        if root not in stack:
            continue
        total += n
        below = stack[stack.index(root) + 1:]
        for f in set(below):
            incl[f] += n
    return {f: 100.0 * n / total for f, n in incl.items()}, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("profile", help="folded stacks from tengen profile --folded")
    ap.add_argument("callgrind", help="callgrind.out written with --dump-instr=yes")
    ap.add_argument("binary", help="the tengen binary both ran")
    ap.add_argument("--root", required=True, help="the frame the shares are of")
    ap.add_argument("--event", default="Ir",
                    help="callgrind event to count (Ir; Bcm with --branch-sim=yes)")
    ap.add_argument("--min", type=float, default=2.0, help="smallest share listed (%%)")
    a = ap.parse_args()
    prof, n_prof = shares(read_folded(a.profile), a.root)
    cg, n_cg = shares(callgrind_folded(a.callgrind, a.binary, a.root, a.event), a.root)
    if n_prof == 0 or n_cg == 0:
        sys.exit(f"no {a.root} frame in the profile ({n_prof}) or in callgrind ({n_cg})")
    rows = sorted(
        (f for f in set(prof) | set(cg) if max(prof.get(f, 0), cg.get(f, 0)) >= a.min),
        key=lambda f: -prof.get(f, 0),
    )
    print(f"| frame under `{a.root}` | profile: % of {n_prof} samples "
          f"| callgrind: % of {n_cg:,.0f} {a.event} | difference |")
    print("|---|---:|---:|---:|")
    for f in rows:
        p, c = prof.get(f, 0.0), cg.get(f, 0.0)
        print(f"| `{f}` | {p:.1f} | {c:.1f} | {p - c:+.1f} |")


if __name__ == "__main__":
    main()
