# Arguments are read strictly, by the parsers the command line shares (issue 24, item 4), and
# a refusal says what is accepted.

# A command without arguments refuses one: `undo extra` must not undo.
1 boardsize 9
#? []

2 play b e5
#? []

3 undo extra
#? [\?syntax error: undo takes no argument]

4 showboard
#? [(.*\n)? 5 \. \. \. \. X \. \. \. \. 5(\n.*)?]

5 clear_board now
#? [\?syntax error.*]

6 undo
#? []

# kgs-rules takes the rules KGS names, nothing else.
7 kgs-rules nonsense
#? [\?syntax error: expected rules chinese, japanese, aga or new_zealand]

8 kgs-rules Chinese
#? []

9 kgs-rules new_zealand
#? [recorded; tengen still scores by area \(Chinese rules, positional superko\)]

# Komi: the same range as `--komi` on the command line.
10 komi 1000
#? []

11 get_komi
#? [1000]

12 komi -1000
#? []

13 komi 1000.5
#? [\?syntax error: expected a komi from -1000 to 1000.*]

14 komi seven
#? [\?syntax error: expected a komi from -1000 to 1000.*]

15 komi 7.5
#? []

# Board sizes as on the command line (`9x9` works); out of range is GTP's unacceptable size.
16 boardsize 9x9
#? []

17 query_boardsize
#? [9]

18 boardsize 25
#? [\?unacceptable size]

19 boardsize nine
#? [\?syntax error: board sizes 2 to 19 are supported.*]

# set_free_handicap names the bad vertex.
20 set_free_handicap a1 a1
#? [\?bad vertex list: A1 is given twice]

21 set_free_handicap a1 k10
#? [\?invalid coordinate k10: expected a vertex from A1 to J9 \(no column I\) or pass]

22 set_free_handicap a1
#? [\?invalid number of stones.*]

23 set_free_handicap a1 b2
#? []

# Counts and times say what they take.
24 time_settings 60 x 5
#? [\?syntax error: expected a number of seconds of at least 0]

25 loadsgf tests/gtp/game.sgf 0
#? [\?syntax error: expected a whole number of .*from 1.*|\?syntax error: expected a whole number of .*at least 1]
