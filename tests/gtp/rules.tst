# The rules commands clients send (issue 39, item 15): KataGo's rules queries (Sabaki,
# KaTrain), KGS's end of game, and the CPU time gogui-twogtp reads. tengen plays one rule set:
# area scoring, positional superko, no suicide.

1 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"0"\}]

2 kata-set-rules chinese
#? []

3 kata-set-rules japanese
#? [\?unsupported rules japanese: tengen plays chinese rules only \(area scoring, positional superko, no suicide\)]

4 kata-set-rules
#? [\?syntax error]

5 kgs-game_over
#? []

6 cputime
#? [[0-9]+\.[0-9]{3}]

7 known_command kata-get-rules
#? [true]

8 known_command cputime
#? [true]

9 kgs-rules chinese
#? []

10 kgs-rules japanese
#? [recorded; tengen still scores by area \(Chinese rules, positional superko\)]

11 cputime extra
#? [\?syntax error: cputime takes no argument]
