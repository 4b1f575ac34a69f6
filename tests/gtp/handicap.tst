# Fixed and free handicap.

1 boardsize 9
2 clear_board

3 fixed_handicap 10
#? [\?invalid number of stones.*]

4 fixed_handicap 1
#? [\?invalid number of stones.*]

5 fixed_handicap two
#? [\?syntax error.*]

6 fixed_handicap 2
#? [(C3 G7|G7 C3)]

7 fixed_handicap 3
#? [\?board not empty]

8 clear_board
9 fixed_handicap 9
#? [C3 G7 C7 G3 C5 G5 E3 E7 E5]

# White moves after handicap.
10 genmove w
#? [[A-J][1-9]]

11 boardsize 19
12 fixed_handicap 4
#? [D4 Q16 D16 Q4]

13 boardsize 7
14 fixed_handicap 2
#? [\?invalid number of stones.*]

15 boardsize 8
16 fixed_handicap 5
#? [\?invalid number of stones.*]

17 fixed_handicap 4
#? [C3 F6 C6 F3]

18 boardsize 9
19 place_free_handicap 3
#? [[A-J][1-9] [A-J][1-9] [A-J][1-9]]

20 place_free_handicap 2
#? [\?board not empty]

21 clear_board
22 place_free_handicap 1
#? [\?invalid number of stones.*]

23 place_free_handicap 12
#? [([A-J][1-9] ){11}[A-J][1-9]]

24 clear_board
25 set_free_handicap A1 A1
#? [\?bad vertex list.*]

26 set_free_handicap A1
#? [\?invalid number of stones.*]

27 set_free_handicap A1 Z9
#? [\?invalid coordinate.*]

28 set_free_handicap A1 B2 J9
#? []

29 set_free_handicap C3 D4
#? [\?board not empty]

30 showboard
#? [(.*\n)? 2 \. X \. \. \. \. \. \. \. 2\n 1 X \. \. \. \. \. \. \. \. 1(\n.*)?]

# Chinese rules give White a point per handicap stone (issue 66, item 4): nine stones on an
# otherwise empty 19x19 board with komi 0.5 are 361 points less 9.5. Without the bonus, 360.5.
31 kata-set-rules chinese
32 boardsize 19
33 clear_board
34 komi 0.5
35 fixed_handicap 9
36 final_score
#? [B\+351\.5]

37 kata-set-rules {"whiteHandicapBonus":"0"}
38 final_score
#? [B\+360\.5]

39 kata-set-rules {"whiteHandicapBonus":"N-1"}
40 final_score
#? [B\+352\.5]
