"""Where was the game won? Win probabilities by Monte Carlo rollouts (issue 24).

From each decision point of a finished game (or the umpire's view of a live one), Wake's bots
play the game to its end many times with fresh dice, and the share each side wins estimates its
**win probability if both sides play as Wake's bots from here**: an estimate about these bots,
not a truth about the position. Three estimates per point split each swing into the decision
(the order given, replayed with fresh dice, against the bots' own play) and the luck (the dice
the order actually got).

* :mod:`.points`: the decision points of a game (every order, activation or turn);
* :mod:`.rollouts`: one rollout, its seed (from the game, the point and the index), a batch;
* :mod:`.model`: what is stored and exported, and the read model a viewer draws;
* :mod:`.run`: the analysis of a game, resumable, on any :mod:`domain.distributed` runner;
* :mod:`.stored`: the results beside the game in the store (never in its chain).
"""
