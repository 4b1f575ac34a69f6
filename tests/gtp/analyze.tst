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
#? [\?syntax error]

10 lz-genmove_analyze b 10
#? [(info .*\n)?play [A-J][1-9]]

11 kata-genmove_analyze w
#? [(info .*\n)?play ([A-J][1-9]|pass)]
