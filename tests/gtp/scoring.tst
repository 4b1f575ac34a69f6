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
