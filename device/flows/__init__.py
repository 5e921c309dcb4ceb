"""Game flows: one a game, each turning what the tracker sees and the buttons into its game's events (typed,
confirmed with OK), and its state into screens (``flow.Flow``); ``play.Play`` runs one at the table with its
journal, ``loop.Loop`` feeds it each camera frame. The games and their flows are listed in ``device.games``.
"""
