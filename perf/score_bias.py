#!/usr/bin/env python3
"""How far tengen's search overrates its own side, against GNU Go's count, on match records.

For each record of a game between tengen and another engine (`tengen match` writes PB and PW
with the engines' names) and each of `--moves`, the position before that move is searched once
by `--tengen` (one `genmove` for the side to move; its stderr line gives the search's mean
score lead) and counted by GNU Go's `estimate_score`. Both are turned into tengen's side's
lead; the difference is the search's optimism there. Prints one row a position, then the mean
(with its standard error), the mean absolute difference and the root mean square.

    python3 perf/score_bias.py --moves 81,121,161,201 g19u-a/*.sgf \\
        --tengen "target/release/tengen gtp --size 19 --playouts 20000 --no-early-stop --seed 7" \\
        --gnugo "gnugo --mode gtp --level 10 --chinese-rules"

GNU Go's count is a classical engine's judgement, not the truth: read the figures as a
comparison of tengen's searches (two `--tengen` lines, e.g. two playout policies), each
against the same count.

On tengen's own records the figures favour any search but the one that played the games: its
moves were chosen where its own judgement errs in its favour, and another search's errors
there are mostly others. `--side black` reads records of other players (Pachi's self-play in
`data/records-19x19`, say), where no search has that edge, from Black's side.
"""
import argparse
import math
import re
import shlex
import subprocess
import tempfile


def moves_of(path):
    return len(re.findall(r";[BW]\[", open(path, encoding="utf-8").read()))


def tengen_colour(path):
    """+1 when tengen played Black in the record, -1 when White."""
    text = open(path, encoding="utf-8").read()
    pb = re.search(r"PB\[([^\]]*)\]", text)
    pw = re.search(r"PW\[([^\]]*)\]", text)
    if pb and "tengen" in pb.group(1).lower():
        return 1
    if pw and "tengen" in pw.group(1).lower():
        return -1
    raise SystemExit(f"{path}: neither PB nor PW names tengen")


def black_lead(answer):
    """GNU Go's `estimate_score` answer (`B+2.0 (upper bound: ...)`) as Black's lead."""
    m = re.match(r"([BW])\+([0-9.]+)", answer)
    if not m:
        raise SystemExit(f"unexpected estimate_score answer: {answer!r}")
    return float(m.group(2)) * (1 if m.group(1) == "B" else -1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--tengen", required=True, help="tengen's command line (gtp, not --quiet)")
    ap.add_argument("--gnugo", default="gnugo --mode gtp --level 10 --chinese-rules")
    ap.add_argument("--side", choices=["tengen", "black"], default="tengen",
                    help="whose lead: tengen's side of the record, or Black's")
    ap.add_argument("--moves", default="81,121,161,201",
                    help="move numbers: the positions before them (GTP loadsgf)")
    args = ap.parse_args()

    positions = []
    for r in args.records:
        n = moves_of(r)
        for m in (int(x) for x in args.moves.split(",")):
            if m <= n:
                positions.append((r, m))
    script = ["boardsize 19"]
    for r, m in positions:
        script += [f"loadsgf {r} {m}", "genmove " + ("b" if m % 2 == 1 else "w")]
    with tempfile.TemporaryFile(mode="w+") as err:
        subprocess.run(shlex.split(args.tengen), input="\n".join(script + ["quit"]) + "\n",
                       stdout=subprocess.DEVNULL, stderr=err, text=True, check=True)
        err.seek(0)
        searched = [(line[0], float(re.search(r"score lead ([-+0-9.]+)", line).group(1)))
                    for line in err if "playouts in" in line]
    if len(searched) != len(positions):
        raise SystemExit(f"{len(searched)} searches reported for {len(positions)} positions")
    script = []
    for r, m in positions:
        script += [f"loadsgf {r} {m}", "estimate_score"]
    out = subprocess.run(shlex.split(args.gnugo), input="\n".join(script + ["quit"]) + "\n",
                         capture_output=True, text=True, check=True).stdout
    counts = [black_lead(a) for a in re.findall(r"^= ([BW]\+[^\n]*)$", out, re.M)]
    if len(counts) != len(positions):
        raise SystemExit(f"{len(counts)} counts for {len(positions)} positions")

    diffs = []
    for (r, m), (mover, lead), count in zip(positions, searched, counts):
        side = tengen_colour(r) if args.side == "tengen" else 1
        ours = side * (lead if mover == "B" else -lead)
        theirs = side * count
        diffs.append(ours - theirs)
        print(f"{r}\tmove {m}\ttengen's search {ours:+.1f}\tGNU Go {theirs:+.1f}\t{ours - theirs:+.1f}")
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else float("nan")
    mad = sum(abs(d) for d in diffs) / n
    rms = math.sqrt(sum(d * d for d in diffs) / n)
    whose = "tengen's side's" if args.side == "tengen" else "Black's"
    print(f"{n} positions: {whose} lead, its search minus GNU Go's count: mean {mean:+.1f} "
          f"(standard error {se:.1f}), mean absolute {mad:.1f}, root mean square {rms:.1f}")


if __name__ == "__main__":
    main()
