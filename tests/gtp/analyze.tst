# Analysis commands. Input arrives at once here, so streaming commands end at once; the
# streaming itself is tested in gtp_analyze.rs.

1 boardsize 9
2 clear_board

3 gogui-analyze_commands
#? [dboard/Ownership/tengen-ownership\nsboard/Visits/tengen-visits %c]

4 tengen-ownership
#? [(-?[01]\.[0-9][0-9]( -?[01]\.[0-9][0-9]){8}\n){8}-?[01]\.[0-9][0-9]( -?[01]\.[0-9][0-9]){8}]

5 tengen-visits b
#? [(((""|[0-9]+) ){8}(""|[0-9]+)\n){8}((""|[0-9]+) ){8}(""|[0-9]+)]

6 tengen-visits purple
#? [\?invalid color]

7 lz-analyze 10
#? [(info .*)?]

8 kata-analyze b 10 ownership true
#? [(info .*)?]

9 lz-analyze b interval
#? [\?syntax error: .*]

10 lz-genmove_analyze b 10
#? [(info .*\n)?play [A-J][1-9]]

11 kata-genmove_analyze w
#? [(info .*\n)?play ([A-J][1-9]|pass)]

# Malformed analysis arguments are refused before anything streams or is played.
20 kata-analyze foo
#? [\?syntax error: .*]

21 lz-analyze x
#? [\?syntax error: .*]

22 lz-analyze -5
#? [\?syntax error: .*]

23 kata-analyze 50 ownership maybe
#? [\?syntax error: .*]

24 lz-analyze b 50 10
#? [\?syntax error: .*]

25 lz-analyze b 50 ownership true
#? [\?syntax error: .*]

26 kata-analyze b 50 ownershipStdev true
#? [\?syntax error: .*]

27 lz-genmove_analyze b 10 minmoves x
#? [\?syntax error: .*]

28 kata-genmove_analyze b 10 avoid b e5 0
#? [\?syntax error: .*]

29 lz-analyze b 10 avoid b z9 1
#? [\?syntax error: .*]

30 kata-analyze b 10 allow b e5 1 allow b d4 1
#? [\?syntax error: .*]

# Nothing was played by the refused genmove_analyze commands: Black's only stone is the one
# from command 10 (and White's from 11).
31 showboard
#? [[^X]*X[^X]*]

# `allow`: the search considers only the listed moves (not even pass) for Black at the root.
40 lz-genmove_analyze b 10 allow b c3,d4 1
#? [(info .*\n)*play (C3|D4)]
#? [!.*info move ([^CD]|C[^3]|D[^4]).*]
#? [.*pv ([A-J][1-9]|pass) ([A-J][1-9]|pass) ([ABE-J][1-9]|C[^3]|D[^4]|pass)[ \n].*]

# `avoid`: the listed moves are never searched for Black at the root...
41 undo
42 kata-genmove_analyze b 10 avoid b e5,d5,f5,e4,e6,d4,f4,d6,f6,pass 1
#? [(info .*\n)*play [A-J][1-9]]
#? [!.*info move (E5|D5|F5|E4|E6|D4|F4|D6|F6|pass) .*]
#? [!.*play (E5|D5|F5|E4|E6|D4|F4|D6|F6|pass)]

# With a depth of 3 the rule holds at Black's next move in the variations too (ply 2); with a
# depth of 1 (command 40) it does not. On the empty board, so that one of the three vertices
# is still free at ply 2 (rules that leave no move do not hold; the stones of commands 10 and
# 11 come from searches whose length depends on timing, and may sit on one of them). That
# White's replies (ply 1) stay free is checked in the unit tests of `mcts::restrict`: whether a
# variation shows one outside the three depends on the search, so it is not asserted here.
43 clear_board
44 lz-genmove_analyze b 10 allow b c3,d4,e5 3
#? [(info .*\n)*play (C3|D4|E5)]
#? [!.*pv ([A-J][1-9]|pass) ([A-J][1-9]|pass) ([ABF-J][1-9]|C[^3]|D[^4]|E[^5]|pass)[ \n].*]

# `maxmoves`, `pvVisits`, `rootInfo`: two moves per line, each pv followed by its visits, then
# the root's entry.
45 undo
46 kata-genmove_analyze b 10 maxmoves 2 pvVisits true rootInfo true
#? [((info move ([A-J][1-9]|pass) visits [0-9]+ utility [-0-9.]+ winrate [0-9.]+ scoreMean [-0-9.]+ scoreStdev 0 scoreLead [-0-9.]+ prior [0-9.]+ lcb [0-9.]+ order [01] pv( [A-J][1-9]| pass)+ pvVisits( [0-9]+)+ ){2}rootInfo visits [0-9]+ utility [-0-9.]+ winrate [0-9.]+ scoreMean [-0-9.]+ scoreLead [-0-9.]+\n)+play ([A-J][1-9]|pass)]
