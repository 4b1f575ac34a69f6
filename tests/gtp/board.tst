# Board size, komi, moves, undo: errors leave the game unchanged.

1 boardsize 9
#? []

2 boardsize 1
#? [\?unacceptable size]

3 boardsize 25
#? [\?unacceptable size]

4 boardsize nine
#? [\?syntax error.*]

5 boardsize
#? [\?syntax error.*]

# The failed boardsize commands kept the 9x9 board.
6 query_boardsize
#? [9]

7 komi 6.5
#? []

8 komi a_lot
#? [\?syntax error.*]

9 komi nan
#? [\?syntax error.*]

10 get_komi
#? [6\.5]

11 play b E5
#? []

12 play w E5
#? [\?illegal move]

13 play b I5
#? [\?invalid color or coordinate]

14 play b K5
#? [\?invalid color or coordinate]

15 play x D4
#? [\?invalid color or coordinate]

16 play b
#? [\?syntax error.*]

17 play b A10
#? [\?invalid color or coordinate]

18 play W d4
#? []

19 play BLACK pass
#? []

20 showboard
#? [(.*\n)? 5 \. \. \. \. X \. \. \. \. 5\n 4 \. \. \. O \. \. \. \. \. 4(\n.*)?]

21 undo
#? []

22 undo
#? []

23 undo
#? []

24 undo
#? [\?cannot undo]

25 showboard
#? [[^XO]*]

# Suicide is illegal.
26 play b A2
27 play b B1
28 play w A1
#? [\?illegal move]

29 clear_board
#? []

30 showboard
#? [[^XO]*]

# Simple ko: White captures at D1, Black may not retake at once.
31 play b B1
32 play b C2
33 play w D2
34 play w E1
35 play w C1
36 play b D1
#? []
37 play w C1
#? [\?illegal move]
38 play w J9
39 play b J8
40 play w C1
#? []

# Positional superko: after passes lift the simple-ko ban, retaking would repeat a position.
41 clear_board
42 play b B1
43 play b C2
44 play w D2
45 play w E1
46 play w C1
47 play b D1
48 play w pass
49 play b pass
50 play w C1
#? [\?illegal move]
