# Scoring and final status of settled positions.

1 loadsgf tests/gtp/won.sgf
#? [black]

2 final_score
#? [B\+6\.5]

3 final_status_list dead
#? []

4 final_status_list alive
#? [([A-J][1-9] )+[A-J][1-9]]

5 final_status_list seki
#? []

6 final_status_list dying
#? [\?syntax error]

7 final_status_list
#? [\?syntax error]

# Five white stones in atari inside Black's wall count as dead.
8 loadsgf tests/gtp/dead.sgf
#? [black]

9 final_status_list dead
#? [E2 G2 E3 F3 G3]

10 final_score
#? [B\+.*]

11 boardsize 9
12 clear_board
13 komi 7.5
14 final_score
#? [W\+7\.5]

# Seki: an eye each and one shared liberty (c9); the outer walls are not in seki.
15 loadsgf tests/gtp/seki.sgf
#? [black]

16 final_status_list seki
#? [A8 B8 C8 D8 E8 F8 B9 D9 F9]

# A lone stone beside nine handicap stones is dead, as GNU Go judges it (issue 39, item 3): the
# playouts alone let it live, every region touched both colours and the count was B+0.5.
24 boardsize 19
25 clear_board
26 komi 7.5
27 fixed_handicap 9
28 play w K3
29 play b pass
30 play w pass
31 final_status_list dead
#? [K3]
# 361 points less komi and White's point per handicap stone (Chinese rules, issue 66).
32 final_score
#? [B\+344\.5]

# Lone stones far apart, or face to face one against one, are not dead (GNU Go agrees).
33 clear_board
34 play b D4
35 play w Q16
36 final_status_list dead
#? []
37 boardsize 9
38 clear_board
39 play b E5
40 play w E6
41 final_status_list dead
#? []
42 clear_board
43 play b C3
44 play b G7
45 play w D3
46 final_status_list dead
#? [D3]
