"""A bout (``docs/rules.md`` §3, §4), one rule to a file.

* :mod:`.lead` — a bout begins: who attacks whom, and the lead;
* :mod:`.limits` — how many attack cards a bout may hold (the defender's hand, 6, 5 before
  the first bito, no sixth card after a taken 5-card ``circle`` lead);
* :mod:`.throwers` — who may throw in (all, neighbours, never the partner), passes;
* :mod:`.cover` — covering an attack card; :mod:`.take` — the defender takes;
* :mod:`.transfer` — passing the attack on (perevodnoy, ``circle`` stage 2);
* :mod:`.end` — bito or the pick-up, the draw order, going out, the fool, draw games;
* :mod:`.table` — the cards on the table;
* :mod:`.play` — the game states of podkidnoy and perevodnoy: the rules above composed.
"""
