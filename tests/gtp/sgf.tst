# loadsgf and printsgf.

1 loadsgf tests/gtp/no_such_file.sgf
#? [\?cannot load file: .*]

2 loadsgf tests/gtp/not_sgf.txt
#? [\?cannot load file: .*]

3 loadsgf
#? [\?syntax error.*]

4 loadsgf tests/gtp/capture.sgf 0
#? [\?syntax error.*]

5 loadsgf tests/gtp/capture.sgf
#? [black]

6 query_boardsize
#? [9]

7 get_komi
#? [7\.5]

# The loaded record's root comment is kept (issue 66, item 6).
8 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[9\]KM\[7\.5\].*AB(\[[a-i][a-i]\])+AW.*PL\[B\]C\[Black captures five stones at F4\]\)]

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
#? [\?cannot load file: .*]

17 query_boardsize
#? [9]

18 printsgf /nonexistent_dir/x.sgf
#? [\?cannot save file]

# Records round-trip (issue 24, item 3): the handicap, rules, players, date, result, comment
# and every move of a loaded record come back from printsgf.
19 loadsgf tests/gtp/record.sgf
#? [white]

20 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[9\]KM\[0\.5\]RU\[Japanese\]HA\[4\]PB\[Black Player\]PW\[White Player\]DT\[2024-05-01\]RE\[W\+2\.5\]GC\[A handicap game\]AB(\[(cc|gc|cg|gg)\]){4}PL\[W\]\n;W\[ee\];B\[ec\];W\[ed\];B\[dd\];W\[\];B\[fd\];W\[\];B\[\]\)]

# Loaded only up to a move, the record's result no longer holds.
21 loadsgf tests/gtp/record.sgf 5
#? [white]

22 printsgf
#? [.*HA\[4\].*PB\[Black Player\].*\n;W\[ee\];B\[ec\];W\[ed\];B\[dd\]\)]

23 printsgf
#? [!.*RE\[.*]

# A game that ends with two passes gets its result (area scoring, dead stones removed).
24 boardsize 9
#? []

25 clear_board
#? []

26 play b e5
#? []

27 play w pass
#? []

28 play b pass
#? []

29 printsgf
#? [.*RU\[Chinese\].*RE\[B\+[0-9]+\.[05]\].*\n;B\[ee\];W\[\];B\[\]\)]

# kgs-rules names the rules of the record; scoring stays area scoring.
30 kgs-rules japanese
#? [recorded; tengen still scores by area \(Chinese rules, positional superko\)]

31 printsgf
#? [.*RU\[Japanese\].*]

# Our resignation is the result.
32 clear_board
#? []

33 komi 150
#? []

34 genmove b
#? [resign]

35 printsgf
#? [.*KM\[150\].*RE\[W\+R\].*\)]

# A failed load says what and where (issue 39, item 13), reads no more than a record can
# hold (item 7), and keeps the game.
36 loadsgf tests/gtp/no_such_file.sgf
#? [\?cannot load file: cannot read tests/gtp/no_such_file\.sgf: .*]

37 loadsgf tests/gtp/not_sgf.txt
#? [\?cannot load file: tests/gtp/not_sgf\.txt: .+]

38 loadsgf tests/gtp/size_25.sgf
#? [\?cannot load file: tests/gtp/size_25\.sgf: unsupported board size "25"]

39 loadsgf tests/gtp/occupied.sgf
#? [\?cannot load file: tests/gtp/occupied\.sgf: the setup stones: .+]

40 loadsgf tests/gtp/bad_move.sgf
#? [\?cannot load file: tests/gtp/bad_move\.sgf: move 2 \(W E5\) is illegal: .+]

41 loadsgf tests/gtp/komi_nan.sgf
#? [\?cannot load file: tests/gtp/komi_nan\.sgf: bad KM value "nan"]

42 loadsgf tests/gtp/komi_5000.sgf
#? [\?cannot load file: tests/gtp/komi_5000\.sgf: komi 5000 is out of range \(-1000 to 1000\)]

43 loadsgf /dev/zero
#? [\?cannot load file: /dev/zero is larger than 4 MiB, more than a game record]

44 get_komi
#? [150]

# Records that real programs write (issue 66, item 7): a repetition replayed as played, setup
# stones in later nodes, PL[2] as White; and every C[] kept by printsgf (item 6).
45 loadsgf tests/gtp/repetition.sgf
#? [white]

46 printsgf
#? [\(;FF\[4\].*C\[A ko played out with passes: move 4 repeats the setup position\]\n;B\[ch\]C\[Black takes the ko\];W\[\];B\[\];W\[bh\]C\[White retakes: the setup position again\];B\[ee\].*\)]

47 play w A9
#? []

48 loadsgf tests/gtp/late_setup.sgf 3
#? [white]

49 showboard
#? [(.*\n)* 7 \. \. O \. \. \. X \. \. 7\n 6 \. \. \. \. \. \. X \. \. 6\n 5 \. \. \. \. X \. \. \. \. 5\n 4 \. \. \. \. \. \. \. \. \. 4\n 3 \. \. O O \. \. \. \. \. 3(\n.*)*]
