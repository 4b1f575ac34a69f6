# Tactical reg_genmove cases (the one right move, or never the wrong one).

1 loadsgf tests/gtp/capture.sgf
#? [black]
2 reg_genmove b
#? [F4]

3 loadsgf tests/gtp/save.sgf
#? [black]
4 reg_genmove b
#? [F4]

# Black's only moves are its own eyes: it must pass instead.
5 loadsgf tests/gtp/eyes.sgf
6 reg_genmove b
#? [pass]

# White passed and Black would lose if the game ended now: Black must not pass.
7 loadsgf tests/gtp/behind.sgf
#? [black]
8 reg_genmove b
#? [!pass]
9 reg_genmove b
#? [F4]

# White passed and Black wins on the board: Black passes.
10 loadsgf tests/gtp/won.sgf
11 reg_genmove b
#? [pass]

# reg_genmove does not play the move.
12 loadsgf tests/gtp/capture.sgf
13 reg_genmove b
14 showboard
#? [(.*\n)? 4 \. \. \. \. \. \. X \. \. 4(\n.*)?]

15 reg_genmove purple
#? [\?invalid color]

16 genmove
#? [\?invalid color]

# kgs-genmove_cleanup captures dead stones rather than pass.
17 loadsgf tests/gtp/dead.sgf
18 play w pass
19 kgs-genmove_cleanup b
#? [F2]

20 kgs-genmove_cleanup x
#? [\?invalid color]

# A game against GNU Go 3.8: Black passed with White ahead on the board as it stands, but
# White's left-side group loses its capturing race, and with it the game (B+35.5 with the dead
# stones removed). The tree scores two passes on the board as it stands; White must not pass.
21 loadsgf tests/gtp/race.sgf 80
#? [white]
22 final_score
#? [B\+.*]
23 reg_genmove w
#? [!pass]
