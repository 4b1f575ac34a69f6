# Ending the game: passing when a pass wins under area scoring with the dead stones removed,
# and kgs-genmove_cleanup capturing the dead stones and nothing else.

# Black's wall on row 5 and White's on row 6; a dead White stone at E2 in Black's area and a
# dead Black stone at E8 in White's. Black wins by 1.5 with them removed (45 - 36 - 7.5) but
# loses on the board as it stands (E2 and E8 neutralise both areas).
1 boardsize 9
2 clear_board
3 komi 7.5
10 play b A5
11 play w A6
12 play b B5
13 play w B6
14 play b C5
15 play w C6
16 play b D5
17 play w D6
18 play b E5
19 play w E6
20 play b F5
21 play w F6
22 play b G5
23 play w G6
24 play b H5
25 play w H6
26 play b J5
27 play w J6
30 play w E2
31 play b E8
32 play w pass

# White passed: Black's pass wins, so it passes rather than fill either area.
33 reg_genmove b
#? [pass]

# Cleanup: Black takes the liberties of the dead E2 and nothing else until it is captured, then
# passes (E8 is White's to remove).
34 kgs-genmove_cleanup b
#? [D2|F2|E1|E3]
35 play w pass
36 kgs-genmove_cleanup b
#? [D2|F2|E1|E3]
37 play w pass
38 kgs-genmove_cleanup b
#? [D2|F2|E1|E3]
39 play w pass
40 kgs-genmove_cleanup b
#? [D2|F2|E1|E3]
41 play w pass
42 kgs-genmove_cleanup b
#? [pass]

# White, losing by 1.5 either way, cleans up too: the liberties of E8, nothing else.
43 kgs-genmove_cleanup w
#? [D8|F8|E9|E7]
44 showboard
#? [(.*\n)? 2 \. \. \. X \. X \. \. \. 2\n 1 \. \. \. \. X \. \. \. \. 1(\n.*)?]


# GNU Go passed far ahead (W+88.5) and every Black move loses: Black passes rather than put
# stones into White's area to die (reg_genmove never resigns).
50 loadsgf tests/gtp/lost.sgf
#? [black]
51 reg_genmove b
#? [pass]
