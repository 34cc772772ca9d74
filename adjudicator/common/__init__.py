"""The ground floor: pieces every other part stands on, knowing nothing of campaigns or games.

The random stream (rng), safe YAML loading (yamlsafe), crash-safe writes and the lock
(atomic), forked workers (parallel), and where the shipped schemas and templates are
(resources). The rules in adjudicator/games/ import only rng from here.
"""
