# loadsgf and printsgf.

1 loadsgf tests/gtp/no_such_file.sgf
#? [\?cannot load file]

2 loadsgf tests/gtp/not_sgf.txt
#? [\?cannot load file]

3 loadsgf
#? [\?syntax error]

4 loadsgf tests/gtp/capture.sgf 0
#? [\?syntax error]

5 loadsgf tests/gtp/capture.sgf
#? [black]

6 query_boardsize
#? [9]

7 get_komi
#? [7\.5]

8 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[9\]KM\[7\.5\].*AB(\[[a-i][a-i]\])+AW.*PL\[B\]\)]

# A game with moves: the whole record, then only up to move 2.
9 loadsgf tests/gtp/game.sgf
#? [black]

10 showboard
#? [(.*\n)? 7 \. \. X \. \. \. X \. \. 7\n(.*\n)? 3 \. \. O \. \. \. \. \. \. 3(\n.*)?]

11 printsgf
#? [\(;FF\[4\].*SZ\[9\]KM\[6\.5\].*\n;B\[gc\];W\[cg\];B\[cc\];W\[\]\)]

12 loadsgf tests/gtp/game.sgf 2
#? [white]

13 showboard
#? [(.*\n)? 7 \. \. \. \. \. \. X \. \. 7\n(.*\n)? 3 \. \. \. \. \. \. \. \. \. 3(\n.*)?]

14 undo
#? []

15 undo
#? [\?cannot undo]

# A failed load keeps the game.
16 loadsgf tests/gtp/bad_move.sgf
#? [\?cannot load file]

17 query_boardsize
#? [9]

18 printsgf /nonexistent_dir/x.sgf
#? [\?cannot save file]
