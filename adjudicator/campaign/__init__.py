"""The campaign and its turn: the folder and its settings, seats and passwords, the schedule,
the order pipeline and its schemas, the turn's outputs, adjudication with its atomic commit,
audit, creation, the reveal, and the JSON view of `pbem show`.

Nothing here reads or writes mail, or prints: the mail side and the commands sit above.
"""
