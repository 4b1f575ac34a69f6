# Time settings: accepted forms and syntax errors.

1 boardsize 9
2 clear_board

3 time_settings 300 30 5
#? []

4 time_settings 300 30
#? [\?syntax error.*]

5 time_settings a b c
#? [\?syntax error.*]

6 time_settings -1 0 0
#? [\?syntax error.*]

7 time_left b 120 0
#? []

8 time_left x 120 0
#? [\?syntax error.*]

9 time_left b soon 0
#? [\?syntax error.*]

10 kgs-time_settings none
#? []

11 kgs-time_settings absolute 600
#? []

12 kgs-time_settings byoyomi 600 30 5
#? []

13 kgs-time_settings canadian 600 300 25
#? []

14 kgs-time_settings canadian 600 300
#? [\?syntax error.*]

15 kgs-time_settings fischer 600 10
#? [\?syntax error.*]

16 kgs-time_settings
#? [\?syntax error.*]

# A short clock still gives a move.
17 time_settings 2 0 0
18 time_left b 1 0
19 genmove b
#? [[A-J][1-9]|pass]
