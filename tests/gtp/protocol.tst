# Protocol basics and framing (GTP v2 section 2, shared/GTP.md "Framing").

1 protocol_version
#? [2]

2 name
#? [tengen]

3 version
#? [[0-9]+\.[0-9]+\.[0-9]+.*]

4 known_command play
#? [true]

5 known_command fly_to_the_moon
#? [false]

6 known_command
#? [\?syntax error]

7 list_commands
#? [(.*\n)?genmove\n(.*\n)?kgs-genmove_cleanup\n(.*\n)?lz-analyze(\n.*)?]

8 fly_to_the_moon
#? [\?unknown command]

# Tabs, carriage returns and comments are cleaned away before parsing.
9	protocol_version  # a comment
#? [2]

10 gogui-interrupt
#? []

11 kgs-rules chinese
#? []

12 kgs-rules
#? [\?syntax error]

13 get_komi
#? [7\.5]

14 query_boardsize
#? [9]

# A line with only an id has no command name.
15
#? [\?unknown command]
