#!/usr/bin/env python3
"""Plays one game on from a position of a record, engine A against engine B, over GTP.

The paired measurement of `perf/strength.md` ("Ahead, then lost"): a change that leaves the
engine's moves alone until some position is measured from the positions where it would first
act, each played on with and without it.

    python3 perf/play_on.py --record game.sgf --move 102 --colour w --out result.txt \\
        --a "target/release/tengen gtp --size 19 --playouts 20000 --seed 9000" \\
        --b "gnugo --mode gtp --level 10 --chinese-rules"

Both engines get `boardsize`, `komi` and `loadsgf RECORD MOVE` (GTP: the position before move
MOVE), then play from there, A with `--colour`. The game ends at a resignation, two passes in a
row (scored by B's `final_score`, as GNU Go referees a match) or `--max-plies`. Prints the
result and the plies played, and writes them with the moves to `--out`. A's stderr is appended
to `--out` with `.err` added, B's is discarded.
"""
import argparse
import shlex
import subprocess


class Engine:
    """One GTP engine as a child process."""

    def __init__(self, command, stderr):
        self.command = command
        self.p = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1)

    def send(self, cmd):
        """Sends one command; returns its answer, or raises on a refusal or a dead engine."""
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError(f"`{self.command}` died on `{cmd}`")
            line = line.rstrip("\n")
            if line == "" and lines:
                break
            if line != "" or lines:
                lines.append(line)
        if lines[0].startswith("?"):
            raise RuntimeError(f"`{self.command}` refused `{cmd}`: {lines[0]}")
        return "\n".join([lines[0][1:].strip()] + lines[1:]).strip()

    def close(self):
        try:
            self.send("quit")
        except RuntimeError:
            pass
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", required=True, help="the SGF record")
    ap.add_argument("--move", type=int, required=True,
                    help="play on from the position before this move (GTP loadsgf)")
    ap.add_argument("--colour", choices=["b", "w"], required=True, help="engine A's colour")
    ap.add_argument("--a", required=True, help="engine A's command line")
    ap.add_argument("--b", required=True, help="engine B's command line (it also scores)")
    ap.add_argument("--out", required=True, help="file for the result and the moves")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--max-plies", type=int, default=700)
    args = ap.parse_args()

    with open(args.out + ".err", "a") as err:
        a = Engine(args.a, err)
        b = Engine(args.b, subprocess.DEVNULL)
        for e in (a, b):
            e.send(f"boardsize {args.size}")
            e.send(f"komi {args.komi}")
            e.send(f"loadsgf {args.record} {args.move}")
        # The records alternate from Black with no setup stones: move MOVE is Black's when odd.
        to_move = "b" if args.move % 2 == 1 else "w"
        moves, passes, result = [], 0, None
        while len(moves) < args.max_plies:
            mover, other = (a, b) if to_move == args.colour else (b, a)
            mv = mover.send(f"genmove {to_move}").lower()
            if mv == "resign":
                result = ("W" if to_move == "b" else "B") + "+R"
                break
            other.send(f"play {to_move} {mv}")
            moves.append(f"{to_move} {mv}")
            passes = passes + 1 if mv == "pass" else 0
            if passes == 2:
                break
            to_move = "w" if to_move == "b" else "b"
        if result is None:
            result = b.send("final_score")
        with open(args.out, "w") as f:
            f.write(f"{result} {len(moves)}\n" + "\n".join(moves) + "\n")
        print(result, len(moves))
        a.close()
        b.close()


if __name__ == "__main__":
    main()
