# The rules commands clients send (issue 39, item 15): KataGo's rules queries (Sabaki,
# KaTrain), KGS's end of game, and the CPU time gogui-twogtp reads. tengen plays area scoring,
# positional superko, no suicide; White's handicap bonus follows the rules (Chinese: a point a
# stone). `kata-set-rules` takes `kata-get-rules`' own answer and every KataGo name or object
# whose fields tengen plays, and names the field that differs otherwise (issue 66, item 5).

1 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"\}]

2 kata-set-rules chinese
#? []

3 kata-set-rules japanese
#? [\?unsupported rules: scoring: tengen scores by area, not territory \(japanese\)]

12 kata-set-rules {"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}
#? []

13 kata-set-rules tromp-taylor
#? [\?unsupported rules: suicide: tengen forbids suicide \(tromp-taylor\)]

14 kata-set-rules {"ko":"POSITIONAL","scoring":"AREA","suicide":true}
#? [\?unsupported rules: suicide: tengen forbids suicide]

15 kata-set-rules {"whiteHandicapBonus":"0"}
#? []

16 kata-get-rules
#? [.*"whiteHandicapBonus":"0"\}]

17 kata-set-rules chinese-ogs
#? []

18 kata-get-rules
#? [.*"whiteHandicapBonus":"N"\}]

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
