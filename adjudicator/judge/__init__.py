"""The judge: what a GM does to a campaign and its mail together.

The tick of `pbem run` (run: fetch, ingest, adjudicate when due, remind, mail), its
settings (settings), the messages only it writes (letters), the cache that makes a
quiet campaign cheap (quiet), and handing a seat to a new player (replace), which
touches the campaign, its ingested mail and its outbox in one locked step.
"""
